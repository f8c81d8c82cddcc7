// node-postgres takes DATABASE_URL's password from its user info or from a `password` query
// parameter (which wins): the log must show neither, as written or decoded.

const decoded = (text: string, decode: (text: string) => string): string[] => {
  try {
    return [text, decode(text)];
  } catch {
    return [text];
  }
};

/** The passwords DATABASE_URL holds, each as written in it and decoded. */
export const databaseSecrets = (url: string | undefined): string[] => {
  if (url === undefined || !URL.canParse(url)) return [];
  const { password, search } = new URL(url);
  const inQuery = search
    .slice(1)
    .split('&')
    .filter((pair) => pair.startsWith('password='))
    .flatMap((pair) => decoded(pair.slice('password='.length), (text) => decodeURIComponent(text.replaceAll('+', ' '))));
  return [...new Set([...decoded(password, decodeURIComponent), ...inQuery])].filter(Boolean);
};
