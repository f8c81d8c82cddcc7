// `npm start` runs this first (prestart), as do `npm run build` and the image's build stage: it
// builds dist/ (scripts/build.ts) unless dist/ is up to date. Plain JavaScript, so that on a Node
// too old to run scripts/build.ts it still says what is missing instead of a stack trace.
const MIN_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);
if (major < MIN_MAJOR) {
  process.stderr.write(
    `npm start needs Node ${MIN_MAJOR} or newer; this is Node ${process.version}. ` +
      "`npm ci` installs the project's own Node 24 (the development dependency \"node\"), which npm scripts then use; " +
      '`npm ci --omit=dev` leaves it out. To run without development dependencies, install Node 24 on the machine and ' +
      'build first: `npm ci && npm run build && npm prune --omit=dev`, then `npm start` runs dist/ alone. Or run the Docker image.\n',
  );
  process.exit(1);
}

const { build, BuildToolMissingError } = await import('./build.ts');
try {
  const { files, ms, built } = await build();
  process.stderr.write(built ? `bundled ${files} modules into dist/ in ${Math.round(ms)} ms\n` : `dist/ is up to date (${files} modules)\n`);
} catch (error) {
  process.stderr.write(error instanceof BuildToolMissingError ? `${error.message}\n` : `build failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
