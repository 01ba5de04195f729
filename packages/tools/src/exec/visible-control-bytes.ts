/**
 * Command output as the model may see it: no raw NUL or other C0 control byte (nor DEL) in a tool
 * result, since a NUL breaks C-string code, Postgres `jsonb` and some providers downstream, and the
 * rest are invisible. Tab, LF and CR stay. A few control bytes are shown as `\xNN`; output with
 * many of them (a binary file, a core dump) is described instead, as read_file describes a binary
 * file. The saved output file, when there is one, keeps every byte. Shared by exec, read_output
 * and run_tests.
 * @module
 */
import { guessBinaryType } from '../files/media-type.js';

/** Most control bytes shown as escapes in one text; more (or over 1/8 of the text) and it is described as binary. */
export const maxEscapedControlBytes = 128;

const controlByte = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** {@link visibleControlBytes}' result: the text to show, and a sentence when it differs from the output. */
export interface VisibleText {
  text: string;
  /** What was done (escaped or described), for the result's notice; absent when nothing was. */
  note?: string;
}

/**
 * `text` with its control bytes made visible (see the module doc).
 * @param label what the text is, for the note (`"stdout"`, `"output"`).
 * @param savedIn the file (relative to the root) that holds the raw bytes, if any.
 */
export function visibleControlBytes(text: string, label: string, savedIn?: string): VisibleText {
  const count = text.match(controlByte)?.length ?? 0;
  if (count === 0) return { text };
  const raw = savedIn ? `; the raw bytes are in ${savedIn} (read_file with encoding="base64")` : '';
  if (count > maxEscapedControlBytes || (count > 16 && count * 8 > text.length)) {
    const bytes = Buffer.from(text, 'utf8');
    return {
      text: `[binary output not shown: it has ${count} control bytes and looks like ${guessBinaryType(bytes)}${raw}]`,
      note: `${label} looks binary and is described instead of shown${raw}`,
    };
  }
  const escaped = text.replace(
    controlByte,
    (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
  return {
    text: escaped,
    note: `${label} holds ${count} control byte${count === 1 ? '' : 's'} (NUL, ESC, …), shown as \\xNN${raw}`,
  };
}
