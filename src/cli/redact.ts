/**
 * Last line of defence for output: any known secret value (from the environment) is
 * replaced before text reaches a terminal or a log.
 */
const SECRET_VARIABLES = ['TENANTFORM_CLIENT_SECRET', 'TF_HTTP_PASSWORD', 'PGPASSWORD'];

export function redactSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = text;
  for (const name of SECRET_VARIABLES) {
    const secret = env[name];
    if (secret && secret.length >= 4) out = out.split(secret).join('(sensitive value)');
  }
  return out.replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, '$1 (sensitive value)');
}
