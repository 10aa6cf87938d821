/**
 * Per-site in-flight limit inside one worker process: a slow or dead partner holds at most `perSite` of the
 * worker's slots, and the rest keep delivering to everybody else.
 */
export class SiteSlots {
  private readonly inFlight = new Map<string, number>();

  constructor(private readonly perSite: number) {}

  tryAcquire(siteId: string): boolean {
    const used = this.inFlight.get(siteId) ?? 0;
    if (used >= this.perSite) return false;
    this.inFlight.set(siteId, used + 1);
    return true;
  }

  release(siteId: string): void {
    const used = (this.inFlight.get(siteId) ?? 1) - 1;
    if (used <= 0) this.inFlight.delete(siteId);
    else this.inFlight.set(siteId, used);
  }
}
