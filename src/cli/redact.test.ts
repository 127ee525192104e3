import { redactSecrets } from './redact';

describe('redactSecrets', () => {
  it("masks the credentials terraform reads other backends' states with", () => {
    const env = { AWS_SECRET_ACCESS_KEY: 'aws-secret-1234', TF_TOKEN_app_terraform_io: 'hcp-token-5678', AWS_ACCESS_KEY_ID: 'AKIAEXAMPLE' };
    expect(redactSecrets('key aws-secret-1234, token hcp-token-5678, id AKIAEXAMPLE', env)).toBe(
      'key (sensitive value), token (sensitive value), id AKIAEXAMPLE',
    );
  });
});
