import type { CommandModule } from 'yargs';
import { approveFlags, DESTROY, planApproveApply, type ApproveArgs } from './apply';

/** `tenantform destroy`: a destroy plan, shown, approved, applied (as `terraform destroy`). */
export const destroyCommand: CommandModule<object, ApproveArgs> = {
  command: 'destroy',
  describe: 'Delete every object the state records (or the targets and what depends on them), after asking',
  builder: (y) =>
    approveFlags(y)
      // A destroy changes the platform: refresh-only (accepting what changed) is apply's and plan's.
      .hide('refresh-only')
      .check((a) => {
        if (a['refresh-only']) throw new Error('destroy takes no --refresh-only: `tenantform apply --refresh-only` accepts what changed on the platform.');
        return true;
      })
      .example('tenantform destroy', 'Show what would be deleted, ask, delete')
      .example('tenantform destroy -target=tenantform_infra_component.dr', 'Only this object and what depends on it')
      .example('tenantform plan -destroy -out=destroy.plan && tenantform apply destroy.plan', 'Review first, then apply exactly that'),
  handler: (args) => planApproveApply(args, DESTROY),
};
