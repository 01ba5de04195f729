/**
 * The staging files of one E2B sandbox client's writes, and the sweep of those abandoned ones.
 *
 * A write uploads its bytes to a staging file under `/tmp/sandkit-exec`, then one command moves
 * them into place and removes the staging file. An upload that fails or is aborted can still
 * leave that file behind, and later than the failure: envd (`packages/envd/internal/api/upload.go`
 * of e2b-dev/infra) creates the file when the request reaches it and keeps what it got when the
 * body is cut, and a proxy (or the stand-in) that holds the whole body first writes the file only
 * after the client gave up. So a removal sent at abort time can come before the file exists.
 *
 * Instead, each client names its staging files `up-<tag>-<n>` (`tag`: random per client, `n`:
 * 0, 1, 2, … per write) and, once any of its uploads was abandoned, every later write's finishing
 * command and every later command's wrapper (no extra round trip) removes each of its files whose
 * call has ended: `n` below the next number when the script is built and not a write still in
 * flight. A concurrent write's file is never touched; a file that appears after a sweep goes with
 * the next one.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { execDir } from './e2b-exec-script.js';

/** Names one client's staging files, tracks the writes in flight and builds the sweep. */
export class E2BStagingFiles {
  /** The name prefix this client owns under {@link execDir}. */
  readonly prefix = `up-${randomBytes(6).toString('hex')}-`;
  private next = 0;
  private readonly inFlight = new Set<number>();
  private abandoned = false;

  /** Starts a write: its number and staging path (absolute, in the sandbox). */
  begin(): { n: number; path: string } {
    const n = this.next++;
    this.inFlight.add(n);
    return { n, path: `${execDir}/${this.prefix}${n}` };
  }

  /**
   * Ends write `n`. `abandoned`: its staging file may be left, now or later (the upload failed or
   * was aborted, or the finishing command did not report back); later sweeps remove it.
   */
  end(n: number, abandoned: boolean): void {
    this.inFlight.delete(n);
    if (abandoned) this.abandoned = true;
  }

  /**
   * POSIX sh that removes this client's staging files of ended calls (prints nothing), or
   * `undefined` when no upload was ever abandoned.
   */
  sweepScript(): string | undefined {
    if (!this.abandoned) return undefined;
    const keep = [...this.inFlight].map(String);
    const skip = ["''", '*[!0-9]*', ...keep].join('|');
    return `for sk_f in ${execDir}/${this.prefix}*; do sk_k=\${sk_f##*-}; case $sk_k in ${skip}) continue;; esac; [ "$sk_k" -lt ${this.next} ] && rm -f -- "$sk_f"; done`;
  }
}
