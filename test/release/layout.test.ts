/**
 * The pieces of the release that need no executable: the zip Terraform unpacks, the documents of
 * the registry and mirror protocols and where their URLs lead, and the source map read one line
 * at a time (against Node's own reading of the same map).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { indexLines, originalPosition } from '../../src/bundle/line-index';
import { packageHashV1, writeRelease, type SigningKey } from '../../scripts/release/layout';
import { crc32, zip } from '../../scripts/release/zip';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tenantform-layout-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('zip', () => {
  test('CRC-32 of the standard check string', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  test('unzip reads the file back, executable, and the same files make the same bytes', () => {
    const data = Buffer.from('#!/bin/sh\necho provider\n'.repeat(100));
    const archive = zip([{ name: 'terraform-provider-tenantform_v1.2.3', data, mode: 0o755 }]);
    expect(zip([{ name: 'terraform-provider-tenantform_v1.2.3', data, mode: 0o755 }])).toEqual(archive);
    const file = join(dir, 'one.zip');
    writeFileSync(file, archive);
    expect(execFileSync('unzip', ['-Z', file], { encoding: 'utf8' })).toMatch(/-rwxr-xr-x .* unx .* terraform-provider-tenantform_v1\.2\.3/);
    expect(execFileSync('unzip', ['-p', file])).toEqual(data);
  });
});

describe('the layout', () => {
  const address = { host: 'registry.example.com', namespace: 'acme', type: 'tenantform' };
  const executables = [
    { platform: 'linux_arm64', executable: Buffer.from('arm64 build') },
    { platform: 'linux_amd64', executable: Buffer.from('amd64 build') },
  ];
  const json = (out: string, ...path: string[]) => JSON.parse(readFileSync(join(out, ...path), 'utf8')) as Record<string, any>;

  test("h1: is the hash of the package's files, whatever their order", () => {
    const a = { name: 'a', data: Buffer.from('1') };
    const b = { name: 'b', data: Buffer.from('2') };
    expect(packageHashV1([a, b])).toBe(packageHashV1([b, a]));
    expect(packageHashV1([a, b])).not.toBe(packageHashV1([a, { name: 'b', data: Buffer.from('3') }]));
    expect(packageHashV1([a])).toMatch(/^h1:[A-Za-z0-9+/]{43}=$/);
  });

  test('signed: the registry documents, whose relative URLs lead to the packages, checksums and signature beside the mirror documents', async () => {
    const out = join(dir, 'signed');
    const signed: Buffer[] = [];
    const key: SigningKey = {
      keyId: '0123456789ABCDEF',
      asciiArmor: '-----BEGIN PGP PUBLIC KEY BLOCK-----\n...\n-----END PGP PUBLIC KEY BLOCK-----\n',
      sign: (data) => {
        signed.push(data);
        return Promise.resolve(Buffer.from('signature'));
      },
    };
    const release = await writeRelease({ out, address, version: '1.2.3', executables, signingKey: key });
    expect(release.packages.map((p) => p.filename)).toEqual([
      'terraform-provider-tenantform_1.2.3_linux_amd64.zip',
      'terraform-provider-tenantform_1.2.3_linux_arm64.zip',
    ]);

    const packages = join(out, 'registry.example.com', 'acme', 'tenantform');
    const sums = readFileSync(join(packages, 'terraform-provider-tenantform_1.2.3_SHA256SUMS'));
    expect(signed).toEqual([sums]);
    expect(sums.toString()).toBe(release.packages.map((p) => `${p.shasum}  ${p.filename}\n`).join(''));
    expect(readFileSync(join(packages, 'terraform-provider-tenantform_1.2.3_SHA256SUMS.sig'), 'utf8')).toBe('signature');

    expect(json(out, '.well-known', 'terraform.json')).toEqual({ 'providers.v1': '/v1/providers/' });
    expect(json(out, 'v1', 'providers', 'acme', 'tenantform', 'versions')).toEqual({
      versions: [
        {
          version: '1.2.3',
          protocols: ['6.0'],
          platforms: [
            { os: 'linux', arch: 'amd64' },
            { os: 'linux', arch: 'arm64' },
          ],
        },
      ],
    });
    const documentPath = 'v1/providers/acme/tenantform/1.2.3/download/linux/arm64';
    const download = json(out, ...documentPath.split('/'));
    const arm64 = release.packages[1];
    expect(download).toMatchObject({ protocols: ['6.0'], os: 'linux', arch: 'arm64', filename: arm64.filename, shasum: arm64.shasum });
    expect(download.signing_keys).toEqual({ gpg_public_keys: [{ key_id: key.keyId, ascii_armor: key.asciiArmor }] });
    // Each URL, taken relative to the document as Terraform takes it, names a file of the layout.
    const served = new URL(documentPath, 'https://registry.example.com/');
    for (const field of ['download_url', 'shasums_url', 'shasums_signature_url']) {
      const target = new URL(download[field] as string, served);
      expect(target.host).toBe('registry.example.com');
      expect(existsSync(join(out, decodeURIComponent(target.pathname)))).toBe(true);
    }
    expect(new URL(download.download_url as string, served).pathname).toBe(`/registry.example.com/acme/tenantform/${arm64.filename}`);

    expect(json(packages, 'index.json')).toEqual({ versions: { '1.2.3': {} } });
    expect(json(packages, '1.2.3.json')).toEqual({
      archives: Object.fromEntries(release.packages.map((p) => [p.platform, { url: p.filename, hashes: [p.h1, `zh:${p.shasum}`] }])),
    });
  });

  test('unsigned: the mirrors only, no registry document and no signature', async () => {
    const out = join(dir, 'unsigned');
    const release = await writeRelease({ out, address, version: '1.2.3', executables });
    expect(release.signatureFile).toBeUndefined();
    expect(existsSync(join(out, '.well-known'))).toBe(false);
    expect(existsSync(join(out, 'v1'))).toBe(false);
    expect(existsSync(join(out, 'registry.example.com', 'acme', 'tenantform', '1.2.3.json'))).toBe(true);
  });
});

describe('the source map read one line at a time', () => {
  test("finds, for every generated position, the original one Node's SourceMap finds", () => {
    writeFileSync(
      join(dir, 'shapes.ts'),
      'export function area(w: number, h: number): number {\n  if (w < 0) throw new Error("negative");\n  return w * h;\n}\n',
    );
    writeFileSync(
      join(dir, 'main.ts'),
      'import { area } from "./shapes";\n\nconst sizes = [1, 2, 3];\nfor (const s of sizes) {\n  console.log(area(s, s + 1));\n}\nexport const total = sizes.reduce((a, b) => a + area(a, b), 0);\n',
    );
    const result = buildSync({
      entryPoints: [join(dir, 'main.ts')],
      bundle: true,
      write: false,
      sourcemap: 'external',
      outfile: join(dir, 'out.js'),
      minifyWhitespace: true,
      logLevel: 'error',
    });
    const map = JSON.parse(result.outputFiles.find((f) => f.path.endsWith('.map'))!.text) as { mappings: string; sources: string[] };
    const code = result.outputFiles.find((f) => f.path.endsWith('.js'))!.text;
    const starts = indexLines(map.mappings);
    const node = new SourceMap(map as ConstructorParameters<typeof SourceMap>[0]);
    const lines = code.split('\n');
    let compared = 0;
    for (let line = 0; line < lines.length; line++) {
      for (let column = 0; column < lines[line].length; column++) {
        const ours = originalPosition(map.mappings, starts, line, column);
        const theirs = node.findEntry(line, column) as { generatedLine?: number; originalSource?: string; originalLine?: number; originalColumn?: number };
        // Before a line's first segment, Node answers with the previous line's last one; a frame there names no source.
        if (theirs.generatedLine !== line) {
          expect(ours).toBeUndefined();
          continue;
        }
        expect(ours && { source: map.sources[ours.source], line: ours.line, column: ours.column }).toEqual({
          source: theirs.originalSource,
          line: theirs.originalLine,
          column: theirs.originalColumn,
        });
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});
