// "hold" mode for the suite's protocol peers (the test witness, the test TSA): a request is kept
// unanswered until the mode changes, with no clock to race, and leaves the list when its client
// hangs up, so a test can tell whether the client is still waiting for it.
import type http from "node:http";

export class HeldRequests {
  private readonly held = new Map<number, () => void>();
  private count = 0;

  /** Keeps `go` (what answers the request) until release(); forgets it if the client hangs up. */
  hold(res: http.ServerResponse, go: () => void): void {
    const id = ++this.count;
    this.held.set(id, go);
    res.on("close", () => this.held.delete(id));
  }

  /** Answers every request held so far. */
  release(): void {
    const held = [...this.held.values()];
    this.held.clear();
    for (const go of held) go();
  }

  /** The numbers of the requests held whose clients are still waiting, in arrival order. */
  ids(): number[] {
    return [...this.held.keys()];
  }
}
