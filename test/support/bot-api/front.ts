// What stands in front of the methods: calls a test holds unanswered (a Bot API that takes an
// upload and never answers it), and the body limit of a proxy before a self-hosted Bot API.

/** Calls held by one holdNext. */
export interface HeldCalls {
  /** Calls held so far (answered since, or not). */
  count(): number;
  /** The held calls go on and are answered; later ones are no longer held. */
  release(): void;
}

interface Hold {
  method: string;
  remaining: number;
  seen: number;
  parked: Array<() => void>;
}

/** nginx's answer to a body over client_max_body_size. */
export const TOO_LARGE_PAGE =
  '<html>\r\n<head><title>413 Request Entity Too Large</title></head>\r\n<body>\r\n<center><h1>413 Request Entity Too Large</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';

export class Front {
  /** A proxy's limit on a request's body, in bytes; undefined: none. */
  bodyLimit: number | undefined;
  private holds: Hold[] = [];

  hold(method: string, times: number): HeldCalls {
    const hold: Hold = { method: method.toLowerCase(), remaining: times, seen: 0, parked: [] };
    this.holds.push(hold);
    return {
      count: () => hold.seen,
      release: () => {
        this.holds = this.holds.filter((other) => other !== hold);
        for (const go of hold.parked.splice(0)) go();
      },
    };
  }

  /** Resolves when the call may go on: at once, unless a hold takes it; rejects when `signal` (the client gone) aborts first. */
  async pass(method: string, signal: AbortSignal): Promise<void> {
    const hold = this.holds.find((candidate) => candidate.method === method.toLowerCase() && candidate.remaining > 0);
    if (hold === undefined) return;
    hold.remaining -= 1;
    hold.seen += 1;
    await new Promise<void>((resolve, reject) => {
      const gone = () => reject(new Error('the client closed a held call'));
      if (signal.aborted) return gone();
      signal.addEventListener('abort', gone, { once: true });
      hold.parked.push(() => {
        signal.removeEventListener('abort', gone);
        resolve();
      });
    });
  }

  /** The declared body is over the proxy's limit. */
  refuses(contentLength: string | undefined): boolean {
    return this.bodyLimit !== undefined && contentLength !== undefined && Number(contentLength) > this.bodyLimit;
  }

  /** Releases every held call: for closing. */
  releaseAll(): void {
    for (const hold of this.holds.splice(0)) for (const go of hold.parked.splice(0)) go();
  }
}
