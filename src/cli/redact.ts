/**
 * Last line of defence for output: any known secret value (from the environment) is
 * replaced before text reaches a terminal or a log.
 */
const SECRET_VARIABLES = [
  'TENANTFORM_CLIENT_SECRET',
  'TF_HTTP_PASSWORD',
  'PGPASSWORD',
  // The credentials terraform reads the state of other backends with (they pass through to it).
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'ARM_CLIENT_SECRET',
  'ARM_ACCESS_KEY',
  'ARM_SAS_TOKEN',
  'GOOGLE_CREDENTIALS',
  'GOOGLE_OAUTH_ACCESS_TOKEN',
];

/** Terraform's tokens for HCP Terraform and other hosts: TF_TOKEN_<host>. */
const TOKEN_VARIABLE = /^TF_TOKEN_/;

export function redactSecrets(text: string, env: NodeJS.ProcessEnv = process.env): string {
  let out = text;
  for (const name of [...SECRET_VARIABLES, ...Object.keys(env).filter((n) => TOKEN_VARIABLE.test(n))]) {
    const secret = env[name];
    if (secret && secret.length >= 4) out = out.split(secret).join('(sensitive value)');
  }
  return out.replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, '$1 (sensitive value)');
}
