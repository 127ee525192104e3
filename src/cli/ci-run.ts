/** The web page of the CI run this process is part of, from the CI's own environment. */
export function ciRunUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  // GitHub Actions: https://docs.github.com/actions/learn-github-actions/variables#default-environment-variables
  if (env.GITHUB_ACTIONS === 'true' && env.GITHUB_SERVER_URL && env.GITHUB_REPOSITORY && env.GITHUB_RUN_ID) {
    const attempt = env.GITHUB_RUN_ATTEMPT && env.GITHUB_RUN_ATTEMPT !== '1' ? `/attempts/${env.GITHUB_RUN_ATTEMPT}` : '';
    return `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}${attempt}`;
  }
  // GitLab CI: the job's page, else the pipeline's.
  if (env.GITLAB_CI === 'true') return env.CI_JOB_URL || env.CI_PIPELINE_URL || undefined;
  return undefined;
}
