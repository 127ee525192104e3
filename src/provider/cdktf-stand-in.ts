/**
 * The resource modules also define their cdktf constructs, which makes loading them load cdktf
 * (a quarter of a second, on every one of the several launches of each Terraform command).
 * The provider never builds a construct, so its process registers this stand-in as the `cdktf`
 * module before loading the kinds: the construct classes are defined against it and refuse to
 * be instantiated.
 */
import Module from 'node:module';

class NotInProvider {
  constructor() {
    throw new Error('cdktf constructs cannot be created inside the Terraform provider process');
  }
}

const standIn = {
  TerraformResource: class TerraformResource extends NotInProvider {},
  TerraformDataSource: class TerraformDataSource extends NotInProvider {},
  TerraformProvider: class TerraformProvider extends NotInProvider {},
  Token: { isUnresolved: () => false },
};

/** Makes `require('cdktf')` answer the stand-in in this process. Returns false when cdktf is not installed. */
export function useCdktfStandIn(): boolean {
  let resolved: string;
  try {
    resolved = require.resolve('cdktf');
  } catch {
    return false;
  }
  const entry = new Module(resolved);
  entry.filename = resolved;
  entry.loaded = true;
  entry.exports = standIn;
  require.cache[resolved] = entry;
  return true;
}
