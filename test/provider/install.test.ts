import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliConfig, installProvider, launcherScript, packageVersion, terraformPlatform } from '../../src/provider/install';
import { ensureBuilt } from './helpers';

describe('provider install', () => {
  let dir: string;

  beforeAll(async () => {
    await ensureBuilt();
    dir = mkdtempSync(join(tmpdir(), 'tenantform-install-'));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("Terraform's platform names", () => {
    expect(terraformPlatform('linux', 'x64')).toBe('linux_amd64');
    expect(terraformPlatform('darwin', 'arm64')).toBe('darwin_arm64');
    expect(terraformPlatform('win32', 'x64')).toBe('windows_amd64');
  });

  test('writes an executable launcher in the unpacked mirror layout, named with the package version', () => {
    const installed = installProvider({ dir, nodePath: '/opt/node/bin/node' });
    const version = packageVersion();
    expect(installed.executable).toBe(
      join(dir, 'registry.terraform.io', 'tenantform', 'tenantform', version, terraformPlatform(), `terraform-provider-tenantform_v${version}`),
    );
    expect(statSync(installed.executable).mode & 0o111).toBe(0o111);
    const script = readFileSync(installed.executable, 'utf8');
    expect(script.startsWith('#!/bin/sh\n')).toBe(true);
    expect(script).toMatch(/^exec '\/opt\/node\/bin\/node' '\/.+\/dist\/provider\/main\.js' "\$@"$/m);
  });

  test('quotes paths for the shell', () => {
    expect(launcherScript("/a b/it's/node", '/x/main.js')).toContain(`exec '/a b/it'\\''s/node' '/x/main.js' "$@"`);
  });

  test('the CLI configuration takes our provider from the mirror and nothing else from it', () => {
    const text = cliConfig('/mirror dir');
    expect(text).toContain('filesystem_mirror {');
    expect(text).toContain('path    = "/mirror dir"');
    expect(text).toContain('include = ["registry.terraform.io/tenantform/tenantform"]');
    expect(text).toMatch(/direct \{\s+exclude = \["registry\.terraform\.io\/tenantform\/tenantform"\]\s+\}/);
  });
});
