/**
 * Large response buffers, reused. A long slots answer is ~1.2 MB; allocating one per request
 * keeps tens of megabytes of dead buffers waiting for the garbage collector (external memory is
 * only freed when the small handle that owns it is collected), which is most of what the server's
 * resident memory grows by under load. A buffer goes back to the pool once its response has been
 * handed to the operating system in full, so it is never written while still being sent.
 */
export class BufferPool {
  private readonly free: Buffer[] = [];

  constructor(
    /** Smaller buffers come from Node's own allocator (which pools small ones itself). */
    private readonly minBytes: number,
    private readonly maxPooled: number,
  ) {}

  /** A buffer of at least `size` bytes, with arbitrary content. */
  take(size: number): Buffer {
    if (size < this.minBytes) return Buffer.allocUnsafe(size);
    for (let i = 0; i < this.free.length; i++) {
      if (this.free[i]!.length >= size) return this.free.splice(i, 1)[0]!;
    }
    // Rounded up to whole 64 KiB, so that answers of similar length share buffers.
    return Buffer.allocUnsafe(Math.ceil(size / 65_536) * 65_536);
  }

  /** Gives back a buffer from `take` that nothing refers to any more. */
  give(buffer: Buffer): void {
    if (buffer.length >= this.minBytes && this.free.length < this.maxPooled) this.free.push(buffer);
  }
}
