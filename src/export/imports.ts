import type { TenantExport } from './model';

/**
 * The import list: one `tenantform import <address> <id>` line per exported object, ids as
 * each kind's import format (`identity`). Comment lines start with `#`, so the file runs as a
 * shell script.
 */
export function renderImportList(exp: TenantExport): string {
  const lines = [
    `# Adopts what tenant ${JSON.stringify(oneLine(exp.root.name))} has live into the state of stack ${JSON.stringify(exp.stack)}.`,
    '# Run from the cdktf project after `cdktf synth`.',
    ...exp.objects.map((o) => `tenantform import ${o.address} ${shellWord(o.importId)}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** Quotes a word for a POSIX shell when it holds anything but plain id characters. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

function oneLine(s: string): string {
  return s.replace(/[\r\n\u2028\u2029]+/g, ' ');
}
