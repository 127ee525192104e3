import { ciRunUrl } from './ci-run';

describe('the CI run link', () => {
  it('is built from GitHub Actions variables, with the attempt after the first', () => {
    const github = {
      GITHUB_ACTIONS: 'true',
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/infra',
      GITHUB_RUN_ID: '42',
      GITHUB_RUN_ATTEMPT: '1',
    };
    expect(ciRunUrl(github)).toBe('https://github.com/acme/infra/actions/runs/42');
    expect(ciRunUrl({ ...github, GITHUB_RUN_ATTEMPT: '2' })).toBe('https://github.com/acme/infra/actions/runs/42/attempts/2');
  });

  it("is GitLab's job page, else its pipeline page", () => {
    expect(
      ciRunUrl({ GITLAB_CI: 'true', CI_JOB_URL: 'https://gitlab.example.com/g/p/-/jobs/9', CI_PIPELINE_URL: 'https://gitlab.example.com/g/p/-/pipelines/3' }),
    ).toBe('https://gitlab.example.com/g/p/-/jobs/9');
    expect(ciRunUrl({ GITLAB_CI: 'true', CI_PIPELINE_URL: 'https://gitlab.example.com/g/p/-/pipelines/3' })).toBe(
      'https://gitlab.example.com/g/p/-/pipelines/3',
    );
  });

  it('is absent elsewhere', () => {
    expect(ciRunUrl({})).toBeUndefined();
  });
});
