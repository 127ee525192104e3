import { TenantformError } from '../errors';

/** The failures only the command line meets (approval, synthesis, the state commands). */

export const cliErrors = {
  notInteractive() {
    return new TenantformError(
      'approval_required',
      'Apply needs approval',
      'There is no terminal to ask for approval. Review a saved plan (`tenantform plan --out PLANFILE`) and apply it, or pass --auto-approve.',
      false,
    );
  },
  approvalWithoutInput(command: string) {
    return new TenantformError(
      'approval_required',
      `${command} needs approval, but -input=false forbids asking`,
      `Pass -auto-approve to ${command} without asking${command === 'apply' ? ', or apply a reviewed saved plan (`tenantform plan -out=PLANFILE`, then `tenantform apply PLANFILE`)' : ''}.`,
      false,
    );
  },
  invalidProviderSource(source: string) {
    return new TenantformError(
      'invalid_provider_source',
      'Invalid provider source address',
      `--source "${source}" is not a provider source address: write it as the configuration's required_providers does, [hostname/]namespace/type, e.g. "registry.example.com/platform-team/tenantform".`,
      false,
    );
  },
  providerInstallInSingleExecutable() {
    return new TenantformError(
      'provider_install_in_single_executable',
      'The single executable is installed as a provider by terraform init',
      "This tenantform is the single executable of a release: Terraform installs it as its provider from the release itself (its registry, network mirror or filesystem mirror), and `terraform init` finds it there. `tenantform provider install` is the npm package's way.",
      false,
    );
  },
  synthImpossible(dir: string) {
    return new TenantformError(
      'synth_impossible',
      'Nothing to synthesize',
      `--synth runs the app named by \`app\` in cdktf.json, and ${dir} has no cdktf.json with an app. Run tenantform in the CDK Terrain (cdktn) or cdktf project, or leave out --synth.`,
      false,
    );
  },
  portInUse(port: number) {
    return new TenantformError(
      'port_in_use',
      'Port in use',
      `Port ${port} on 127.0.0.1 is taken by another program. Run \`tenantform emulator --port 0\` for a free port (the export lines name it), or choose another port.`,
      false,
    );
  },
  synthFailed(app: string, code: number | null) {
    return new TenantformError(
      'synth_failed',
      'The app failed to synthesize',
      `\`${app}\` exited with ${code ?? 'a signal'} (its output is above). Nothing was read from the platform.`,
      false,
    );
  },
};

export const stateCommandErrors = {
  outputNotFound(name: string, location: string) {
    return new TenantformError(
      'output_not_found',
      `Output "${name}" not found`,
      `The state in ${location} records no output named "${name}": an apply records the outputs the configuration declares. \`tenantform output\` lists those recorded.`,
      false,
    );
  },
  outputNameNeeded() {
    return new TenantformError('output_name_needed', 'Name an output', '-raw prints one output: `tenantform output -raw NAME`.', false);
  },
  outputNotRaw(name: string) {
    return new TenantformError(
      'output_not_raw',
      'Unsupported value for raw output',
      `-raw prints a string, a number or a bool; "${name}" holds a list, a map or null. Use \`tenantform output -json ${name}\`.`,
      false,
    );
  },
  notInState(address: string, location: string) {
    return new TenantformError(
      'not_in_state',
      'No such object in the state',
      `${address} is not recorded in ${location}. \`tenantform state list\` lists what is.`,
      false,
      address,
    );
  },
  invalidAddress(address: string) {
    return new TenantformError(
      'invalid_address',
      'Invalid resource address',
      `"${address}" is not a resource address: write TYPE.NAME (e.g. tenantform_infra_component.primary) or data.TYPE.NAME.`,
      false,
      address,
    );
  },
  moveTypeMismatch(from: string, to: string) {
    return new TenantformError(
      'move_type_mismatch',
      'Cannot move to another type',
      `${from} cannot become ${to}: an object keeps its resource type.`,
      false,
      from,
    );
  },
  moveTargetExists(to: string) {
    return new TenantformError(
      'move_target_exists',
      'The destination is in use',
      `${to} is already recorded in the state; remove it or choose another address.`,
      false,
      to,
    );
  },
  pushRefused(file: string, reason: string) {
    return new TenantformError(
      'push_refused',
      'The state was not pushed',
      `${file}: ${reason} Nothing was written. Pass --force to replace the state anyway.`,
      false,
    );
  },
  pushUnreadable(file: string, reason: string) {
    return new TenantformError('push_unreadable', 'The state was not pushed', `${file} cannot be read: ${reason}. Nothing was written.`, false);
  },
};
