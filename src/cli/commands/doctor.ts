import type { CommandModule } from 'yargs';
import { clientOfProviderBlock } from '../../engine/session';
import { diagnose, type Finding } from '../doctor';
import { redactSecrets } from '../redact';

interface Args {
  format: 'text' | 'json';
}

const MARK: Readonly<Record<Finding['status'], string>> = { ok: 'ok', warning: 'warning', failed: 'FAILED' };

/** `tenantform doctor`: whether tenantform can work with the platform the environment names. Read only. */
export const doctorCommand: CommandModule<object, Args> = {
  command: 'doctor',
  describe: "Check the platform's address, the API client's credentials and tenant, and the answers tenantform relies on (read only)",
  builder: (y) =>
    y
      .option('format', { choices: ['text', 'json'] as const, default: 'text' as const, describe: 'Findings as lines, or as one JSON document' })
      .example('tenantform doctor', 'The first command to run on a real account: exit 0 when tenantform can work there')
      .epilog(
        'Reads TENANTFORM_BASE_URL, TENANTFORM_CLIENT_ID and TENANTFORM_CLIENT_SECRET. Every read is checked against the shape ' +
          'tenantform expects, each difference named. Exit 0 when tenantform can work there (warnings name what is out of reach), 1 otherwise.',
      ),
  handler: async (args) => {
    // The credentials come from the environment, as for the provider block left empty.
    const client = clientOfProviderBlock({}, process.env);
    try {
      const report = await diagnose(client);
      if (args.format === 'json') process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else {
        for (const f of report.findings) {
          process.stdout.write(`${MARK[f.status].padEnd(7)} ${f.check}: ${redactSecrets(f.detail)}\n`);
          for (const m of f.mismatches ?? []) process.stdout.write(`          ${m}\n`);
        }
        process.stdout.write(
          report.usable ? '\ntenantform can work with this platform.\n' : '\ntenantform cannot work with this platform as it answers: see FAILED above.\n',
        );
      }
      process.exitCode = report.usable ? 0 : 1;
    } finally {
      await client.close();
    }
  },
};
