import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { configWith, infra, run, runOnTerminal, startWorld, writeConfig, type World } from './helpers';

/** A cdktf app in miniature: writes the stack where CDKTF_OUTDIR says, as every cdktf app does. */
function writeApp(world: World, url: string): void {
  const stack = configWith({ tenantform_infra_component: { site: infra('Synth site', { url }) } });
  writeFileSync(
    join(world.dir, 'app.js'),
    `const fs = require('fs');\nconst dir = process.env.CDKTF_OUTDIR + '/stacks/main';\nfs.mkdirSync(dir, { recursive: true });\n` +
      `fs.writeFileSync(dir + '/cdk.tf.json', ${JSON.stringify(JSON.stringify(stack))});\nconsole.log('synthesized main');\n`,
  );
}

describe('progress, --synth and the stale stack warning', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('--synth runs the app first; a later edit of the app is warned about until synthesized again', async () => {
    writeFileSync(join(world.dir, 'cdktf.json'), JSON.stringify({ language: 'javascript', app: 'node app.js', output: 'out' }));
    writeApp(world, 'https://first.example.com');
    const unsynthesized = await run(world, ['plan']);
    expect(unsynthesized.code).toBe(1);
    expect(unsynthesized.stderr).toContain('There is no synthesized stack');

    const synthesized = await run(world, ['apply', '-synth', '-auto-approve']);
    expect(synthesized.stderr).toContain('Synthesizing the app: node app.js');
    expect(synthesized.stderr).toContain('synthesized main');
    expect(synthesized.stdout).toContain('Apply complete! Resources: 1 added, 0 changed, 0 destroyed.');

    writeApp(world, 'https://second.example.com');
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(world.dir, 'app.js'), later, later);
    const stale = await run(world, ['plan', '-detailed-exitcode']);
    expect(stale.code).toBe(0);
    expect(stale.stdout).toContain('No changes.');
    expect(stale.stderr).toContain('Warning: app.js is newer than the synthesized stack out/stacks/main/cdk.tf.json');

    const fresh = await run(world, ['plan', '--synth', '-detailed-exitcode']);
    expect(fresh.code).toBe(2);
    expect(fresh.stderr).not.toContain('is newer than');
    expect(fresh.stdout).toContain('# tenantform_infra_component.site will be updated in-place');
    expect(fresh.stdout).toContain('  ~ update in-place');
    expect(fresh.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');

    const failing = await run(world, ['plan', '--synth'], { PATH: '' });
    expect(failing.code).toBe(1);
    expect(failing.stderr).toContain('The app failed to synthesize');
  });

  it("counts only the app's own sources as newer: not tests, configuration files or other scripts", async () => {
    writeApp(world, 'https://third.example.com');
    // The app's entry requires a module of its own: an edit there is an edit of the app.
    writeFileSync(join(world.dir, 'naming.js'), "module.exports = { prefix: 'Synth' };\n");
    writeFileSync(join(world.dir, 'app.js'), `require('./naming');\n${readFileSync(join(world.dir, 'app.js'), 'utf8')}`);
    expect((await run(world, ['apply', '-synth', '-auto-approve'])).code).toBe(0);
    const later = new Date(Date.now() + 5_000);
    mkdirSync(join(world.dir, '__tests__'), { recursive: true });
    for (const file of ['plan-note.mjs', 'jest.config.js', 'app.test.js', join('__tests__', 'app.js')]) {
      writeFileSync(join(world.dir, file), '// not part of the app\n');
      utimesSync(join(world.dir, file), later, later);
    }
    const untouched = await run(world, ['plan']);
    expect(untouched.code).toBe(0);
    expect(untouched.stderr).not.toContain('is newer than');

    utimesSync(join(world.dir, 'naming.js'), later, later);
    const edited = await run(world, ['plan']);
    expect(edited.stderr).toContain('Warning: naming.js is newer than the synthesized stack out/stacks/main/cdk.tf.json');
  });

  it('without a terminal: a line per phase, and "Still reading..." every ten seconds', async () => {
    const file = writeConfig(world, configWith({ tenantform_infra_component: { slow: infra('Slow read') } }), 'slow.tf.json');
    expect((await run(world, ['apply', '-config', file, '-auto-approve'])).code).toBe(0);
    world.emulator.setFaults({ latency_ms: 3_500 });
    try {
      const r = await run(world, ['plan', '-config', file, '-parallelism=1']);
      expect(r.code).toBe(0);
      expect(r.stderr).toContain('Reading 1 object from the platform...\n');
      expect(r.stderr).toMatch(/Still reading\.\.\. \[1\ds elapsed\] \([01] of 1 object read\)\n/);
      expect(r.stderr).toMatch(/Read 1 object in \d+\.\ds\.\n/);
      expect(r.stdout).not.toContain('Reading');
    } finally {
      world.emulator.setFaults({ latency_ms: 0 });
    }
  });

  it('on a terminal: objects read of the total', async () => {
    const file = writeConfig(world, configWith({ tenantform_infra_component: { a: infra('Tty A'), b: infra('Tty B') } }), 'tty.tf.json');
    expect((await run(world, ['apply', '-config', file, '-auto-approve'])).code).toBe(0);
    const r = await runOnTerminal(world, ['plan', '-config', file], '');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Reading the platform: 2 of 2 objects read');
    expect(r.stdout).not.toContain('Still reading');
  });
});
