import { describe, expect, it, vi } from 'vitest';
import { SandboxError } from '../src/errors/sandbox-error.js';
import { SandkitError, SandkitErrorCode } from '../src/errors/sandkit-error.js';
import { ToolArgumentError } from '../src/errors/tool-argument-error.js';
import { ToolError } from '../src/errors/tool-error.js';
import { ToolOutputError } from '../src/errors/tool-output-error.js';

/** A second, independent copy of the error modules, as a duplicate package install would load. */
async function loadDuplicateCopy() {
  vi.resetModules();
  const [base, tool, sandbox, argument, output] = await Promise.all([
    import('../src/errors/sandkit-error.js'),
    import('../src/errors/tool-error.js'),
    import('../src/errors/sandbox-error.js'),
    import('../src/errors/tool-argument-error.js'),
    import('../src/errors/tool-output-error.js'),
  ]);
  return {
    SandkitError: base.SandkitError,
    ToolError: tool.ToolError,
    SandboxError: sandbox.SandboxError,
    ToolArgumentError: argument.ToolArgumentError,
    ToolOutputError: output.ToolOutputError,
  };
}

describe('SandkitError.isInstance', () => {
  it('recognises errors made by a duplicate copy of the package, where instanceof fails', async () => {
    const copy = await loadDuplicateCopy();
    expect(copy.ToolError).not.toBe(ToolError);
    const fromCopy = new copy.ToolError({ code: SandkitErrorCode.notFound, message: 'x' });
    expect(fromCopy instanceof ToolError).toBe(false);
    expect(ToolError.isInstance(fromCopy)).toBe(true);
    expect(SandkitError.isInstance(fromCopy)).toBe(true);
    expect(SandboxError.isInstance(fromCopy)).toBe(false);
    const sandboxFromCopy = new copy.SandboxError({ code: SandkitErrorCode.sandboxGone, message: 'gone' });
    expect(SandboxError.isInstance(sandboxFromCopy)).toBe(true);
    expect(ToolError.isInstance(sandboxFromCopy)).toBe(false);
    expect(ToolArgumentError.isInstance(new copy.ToolArgumentError({ toolName: 't', issues: [] }))).toBe(
      true,
    );
    expect(ToolOutputError.isInstance(new copy.ToolOutputError({ toolName: 't', issues: [] }))).toBe(true);
    // and the other way round
    expect(copy.ToolError.isInstance(new ToolError({ code: SandkitErrorCode.notFound, message: 'x' }))).toBe(
      true,
    );
  });

  it('is false for plain errors and look-alikes without the marker', () => {
    expect(SandkitError.isInstance(new Error('x'))).toBe(false);
    expect(SandkitError.isInstance({ code: 'not_found', message: 'x' })).toBe(false);
    expect(SandkitError.isInstance(null)).toBe(false);
  });

  it('keeps code, cause and details', () => {
    const cause = new Error('root');
    const error = new SandboxError({
      code: SandkitErrorCode.cwdNotFound,
      message: 'no cwd',
      cause,
      details: { cwd: '/x' },
    });
    expect(error).toMatchObject({
      name: 'SandboxError',
      code: 'cwd_not_found',
      cause,
      details: { cwd: '/x' },
    });
  });
});
