// One linear memory per worker, reused by each fresh instance. With the data segments in a shared
// image (memory-rewrite.ts), only the pages the last guest changed are put back, a few hundred KB
// where the whole memory is megabytes, much as Fastly's copy-on-write snapshots do; otherwise the memory is
// zeroed whole and instantiation writes the segments.
import { WASM_PAGE, type MemoryLimits } from '../memory-rewrite.js';

/** Restore granularity: blocks are compared first, then the pages of a block that changed. */
const BLOCK = 64 * 1024;
const PAGE = 4 * 1024;
type Views = [memory: Buffer, image: Buffer];

/** Matching views of `memory` and `image`, `size` bytes each (the last one shorter if need be). */
function viewsOf(memory: Buffer, image: Buffer, size: number): Views[] {
  const views: Views[] = [];
  for (let at = 0; at < memory.length; at += size)
    views.push([memory.subarray(at, at + size), image.subarray(at, at + size)]);
  return views;
}

export class MemoryPool {
  private memory: WebAssembly.Memory | null = null;
  /** Each block's views, and its pages' once a guest has changed it: made once per memory. */
  private blocks: Array<{ whole: Views; pages: Views[] | null }> = [];
  /** The buffer `blocks` look into: any grow, even by 0 pages, replaces the memory's buffer. */
  private viewedBuffer: ArrayBuffer | null = null;

  constructor(private readonly limits: MemoryLimits) {}

  /**
   * The memory for the next instance, as a fresh instantiation would leave it: the last one when it
   * kept its size (a grown memory would hand the next guest a different starting size than it
   * declared, so it is dropped).
   */
  next(): WebAssembly.Memory {
    const { initial, maximum, image } = this.limits;
    const memory = this.memory;
    if (memory && memory.buffer.byteLength === initial * WASM_PAGE) {
      if (image === null) new Uint8Array(memory.buffer).fill(0);
      else if (memory.buffer !== this.viewedBuffer) this.viewImage(memory, image);
      else this.restore();
      return memory;
    }
    const fresh = new WebAssembly.Memory({ initial, maximum });
    if (image !== null) this.viewImage(fresh, image);
    this.memory = fresh;
    return fresh;
  }

  private restore(): void {
    for (const block of this.blocks) {
      const [memory, pristine] = block.whole;
      if (memory.equals(pristine)) continue;
      block.pages ??= viewsOf(memory, pristine, PAGE);
      for (const [page, want] of block.pages) if (!page.equals(want)) page.set(want);
    }
  }

  /** Copies the whole image into `memory` and points the block views at both. */
  private viewImage(memory: WebAssembly.Memory, image: SharedArrayBuffer): void {
    const buffer = memory.buffer;
    new Uint8Array(buffer).set(new Uint8Array(image));
    this.blocks = viewsOf(Buffer.from(buffer), Buffer.from(image), BLOCK).map((whole) => ({ whole, pages: null }));
    this.viewedBuffer = buffer;
  }
}
