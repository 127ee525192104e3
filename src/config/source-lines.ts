/**
 * Where the blocks of a `.tf` file start, and the arguments at their top level, by line: what
 * the converter leaves out of the JSON it writes. Read from the text line by line, counting
 * braces outside strings, comments and heredocs; what it cannot tell apart has no line.
 */
export class SourceLines {
  /** Lines by address (`tenantform_tenant.customer`, `var.x`, `local.y`) or address and argument; a block declared twice has two. */
  private readonly lines = new Map<string, number[]>();

  constructor(text: string) {
    let depth = 0;
    let block: string | undefined;
    let heredoc: string | undefined;
    text.split(/\r?\n/).forEach((line, i) => {
      if (heredoc !== undefined) {
        if (line.trim() === heredoc) heredoc = undefined;
        return;
      }
      if (depth === 0) {
        block = blockAddress(line);
        if (block !== undefined && block !== 'locals') this.record(block, i + 1);
      } else if (depth === 1 && block !== undefined) {
        const name = /^\s*([A-Za-z_][\w-]*)\s*(=(?!=)|\{)/.exec(line);
        if (name && block === 'locals') this.record(`local.${name[1]}`, i + 1);
        else if (name) this.record(`${block} ${name[1]}`, i + 1);
      }
      const code = line.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/(#|\/\/).*$/, '');
      depth = Math.max(0, depth + (code.match(/[{[(]/g)?.length ?? 0) - (code.match(/[}\])]/g)?.length ?? 0));
      heredoc = /<<-?([A-Za-z_]\w*)\s*$/.exec(code)?.[1];
      if (depth === 0) block = undefined;
    });
  }

  /** The line of a block (its `occurrence`-th declaration), or of one of its top-level arguments. */
  of(address: string, argument?: string, occurrence = 0): number | undefined {
    return (argument === undefined ? undefined : this.lines.get(`${address} ${argument}`)?.[0]) ?? this.lines.get(address)?.[occurrence];
  }

  private record(key: string, line: number): void {
    this.lines.set(key, [...(this.lines.get(key) ?? []), line]);
  }
}

const PREFIX: Readonly<Record<string, string>> = { variable: 'var.', output: 'output.', module: 'module.', check: 'check.' };

/** The address of the block a line opens (`locals` for a locals block), if it opens one. */
function blockAddress(line: string): string | undefined {
  const labelled = /^\s*(resource|data)\s+"([^"]+)"\s+"([^"]+)"\s*\{/.exec(line);
  if (labelled) return `${labelled[1] === 'data' ? 'data.' : ''}${labelled[2]}.${labelled[3]}`;
  const named = /^\s*(variable|output|module|check)\s+"([^"]+)"\s*\{/.exec(line);
  if (named) return `${PREFIX[named[1]]}${named[2]}`;
  return /^\s*locals\s*\{/.test(line) ? 'locals' : undefined;
}
