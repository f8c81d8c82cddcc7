/** One user's export: its place in line, its start, its end. */
export type ExportTurn = {
  /** Its place in line, 1 the next to start; 0 once it runs. */
  place(): number;
  /** Resolves when it may run; `moved` hears its new place each time the line moves meanwhile. */
  started(moved: (place: number) => void): Promise<void>;
  /** Frees the user and the slot (or the place in line); once, whatever happened. */
  end(): void;
};

type Waiting = { go: () => void; moved: (place: number) => void };

/**
 * Exports in this process: one per user at a time, at most `concurrency` at once; the others wait
 * in line, first come first served. Each holds the portal for dozens of pages and a file being
 * written, so a few at once is what a portal and a small heap can take.
 */
export const createExportSlots = (concurrency: number) => {
  const users = new Set<number>();
  const line: Waiting[] = [];
  let running = 0;

  const advance = () => {
    while (running < concurrency && line.length > 0) {
      running += 1;
      line.shift()!.go();
    }
    line.forEach((waiting, index) => waiting.moved(index + 1));
  };

  return {
    /** The user's turn, or undefined while another export of theirs runs or waits. */
    take(userId: number): ExportTurn | undefined {
      if (users.has(userId)) return undefined;
      users.add(userId);
      let active = false;
      let ended = false;
      let listener: (place: number) => void = () => undefined;
      const { promise, resolve } = Promise.withResolvers<void>();
      const waiting: Waiting = {
        go: () => {
          active = true;
          resolve();
        },
        moved: (place) => listener(place),
      };
      if (running < concurrency && line.length === 0) {
        running += 1;
        waiting.go();
      } else line.push(waiting);
      return {
        place: () => (active ? 0 : line.indexOf(waiting) + 1),
        started: (moved) => {
          listener = moved;
          return promise;
        },
        end: () => {
          if (ended) return;
          ended = true;
          users.delete(userId);
          if (active) running -= 1;
          else line.splice(line.indexOf(waiting), 1);
          advance();
        },
      };
    },
    /** Exports running now, and waiting in line. */
    running: () => running,
    waiting: () => line.length,
  };
};

export type ExportSlots = ReturnType<typeof createExportSlots>;
