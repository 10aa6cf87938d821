/**
 * Collects calls made within one turn of the event loop and runs them as one batch: with dozens of
 * requests or deliveries in flight, a statement per batch instead of per call saves most of the database
 * round trips (and their system calls), which dominated the hot paths' CPU time.
 */
export class MicroBatch<In, Out> {
  private pending: Array<{ input: In; resolve: (value: Out) => void; reject: (error: unknown) => void }> = [];
  private scheduled = false;

  constructor(
    private readonly run: (inputs: In[]) => Promise<Out[]>,
    /** Inputs with the same key never share a batch (their statements must not see each other). */
    private readonly keyOf: (input: In) => string,
    private readonly maxSize = 100,
  ) {}

  call(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.pending.push({ input, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const batch: typeof this.pending = [];
    const later: typeof this.pending = [];
    const keys = new Set<string>();
    for (const item of this.pending) {
      const key = this.keyOf(item.input);
      if (keys.has(key) || batch.length >= this.maxSize) later.push(item);
      else {
        keys.add(key);
        batch.push(item);
      }
    }
    this.pending = later;
    if (later.length > 0 && !this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
    this.run(batch.map((item) => item.input)).then(
      (outputs) => batch.forEach((item, index) => item.resolve(outputs[index] as Out)),
      (error: unknown) => batch.forEach((item) => item.reject(error)),
    );
  }
}
