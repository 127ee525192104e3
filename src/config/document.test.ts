import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Whether the HCL converter was loaded: it starts a WebAssembly program, which a JSON stack never needs. */
let converterLoaded = false;
jest.mock('@cdktn/hcl2json/wasm/wasm_exec.js', () => {
  converterLoaded = true;
  return jest.requireActual('@cdktn/hcl2json/wasm/wasm_exec.js');
});

import { readConfiguration } from './document';

describe('reading the configuration', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'tenantform-document-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('loads the HCL converter only for a folder with a .tf file', async () => {
    writeFileSync(join(dir, 'main.tf.json'), JSON.stringify({ variable: { region: { default: 'eu' } } }));
    expect((await readConfiguration({ file: join(dir, 'main.tf.json'), source: 'file' })).document).toEqual({ variable: { region: { default: 'eu' } } });
    expect((await readConfiguration({ file: dir, source: 'folder' })).document).toEqual({ variable: { region: { default: 'eu' } } });
    expect(converterLoaded).toBe(false);

    writeFileSync(join(dir, 'outputs.tf'), 'output "region" {\n  value = var.region\n}\n');
    expect((await readConfiguration({ file: dir, source: 'folder' })).document).toEqual({
      variable: { region: { default: 'eu' } },
      output: { region: { value: '${var.region}' } },
    });
    expect(converterLoaded).toBe(true);
  });
});
