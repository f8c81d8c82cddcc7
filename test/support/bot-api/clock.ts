/** Emulated time: real time plus whatever tests skipped ahead with advance(). */
export class Clock {
  private offsetMs = 0;

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  /** Unix seconds, as in every `date` field. */
  unix(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}
