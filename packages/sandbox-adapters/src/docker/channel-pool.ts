/**
 * Up to `max` command channels per sandbox, opened on demand (the first one at create time).
 * A command that finds every channel busy, or no channel able to open, runs as a plain exec.
 * @module
 */
import { ExecChannel } from './exec-channel.js';
import type { EngineContainer } from './transport/engine-container.js';

/** After a channel failed to open, ms before another attempt. */
const retryAfterFailureMs = 5000;

/** The channels of one sandbox. */
export class ChannelPool {
  private readonly channels: ExecChannel[] = [];
  /** Channels being opened that no caller has claimed yet. */
  private readonly unclaimed: Promise<ExecChannel | undefined>[] = [];
  private opening = 0;
  private retryAt = 0;
  private closed = false;

  constructor(
    private readonly context: EngineContainer,
    private readonly max: number,
  ) {}

  /** Opens one channel in the background so the first command finds it ready. */
  warm(): void {
    if (this.channels.length + this.opening === 0) this.unclaimed.push(this.open());
  }

  /** A reserved idle channel, or `undefined` (use a plain exec). Release happens when its run ends. */
  async acquire(): Promise<ExecChannel | undefined> {
    this.prune();
    const idle = this.channels.find((channel) => !channel.busy);
    if (idle) return reserve(idle);
    const pending = this.unclaimed.shift();
    if (pending) {
      const channel = await pending;
      return channel?.alive && !channel.busy ? reserve(channel) : undefined;
    }
    if (this.closed || this.channels.length + this.opening >= this.max || Date.now() < this.retryAt)
      return undefined;
    const channel = await this.open();
    return channel?.alive && !channel.busy ? reserve(channel) : undefined;
  }

  /** Closes every channel; later acquires return `undefined`. */
  closeAll(): void {
    this.closed = true;
    for (const channel of this.channels) channel.close();
    this.channels.length = 0;
  }

  private async open(): Promise<ExecChannel | undefined> {
    this.opening++;
    try {
      const channel = await ExecChannel.open(this.context);
      if (this.closed) {
        channel.close();
        return undefined;
      }
      this.channels.push(channel);
      return channel;
    } catch {
      // The channel is an optimisation: commands fall back to plain execs, whose errors surface.
      this.retryAt = Date.now() + retryAfterFailureMs;
      return undefined;
    } finally {
      this.opening--;
    }
  }

  private prune(): void {
    for (let index = this.channels.length - 1; index >= 0; index--) {
      if (!this.channels[index]?.alive) this.channels.splice(index, 1);
    }
  }
}

function reserve(channel: ExecChannel): ExecChannel {
  channel.busy = true;
  return channel;
}
