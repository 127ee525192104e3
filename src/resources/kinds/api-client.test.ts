import { normalize } from '../values';
import { validateConfig } from '../validate';
import { apiClient } from './api-client';

/** tenantform_api_client: what the platform would drop is refused before any request. */
describe('tenantform_api_client validation', () => {
  const ADDRESS = 'tenantform_api_client.monitoring';
  const problems = (data: unknown) =>
    validateConfig(apiClient, normalize(apiClient.attributes, { tenant_id: '3f3a3c1e-0000-4000-8000-000000000001', data }), ADDRESS);

  it('takes a JSON object as data, or none', () => {
    expect(problems('{"purpose":"monitoring"}')).toEqual([]);
    expect(problems(null)).toEqual([]);
  });

  it.each(['[1,2]', '"text"', '42', 'null'])('refuses %s as data: the platform keeps only an object', (data) => {
    expect(problems(data)).toEqual([
      expect.objectContaining({ code: 'invalid_json', address: ADDRESS, path: ['data'], detail: expect.stringContaining('a string holding a JSON object') }),
    ]);
  });
});
