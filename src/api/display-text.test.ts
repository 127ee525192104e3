import { displayText } from './display-text';

describe('displayText', () => {
  it('shows what a terminal would obey, and leaves the rest as it is', () => {
    expect(displayText('Contoso GmbH – Köln 東京')).toBe('Contoso GmbH – Köln 東京');
    expect(displayText('\u001b[2J\u001b]52;c;cGF5bG9hZA==\u0007')).toBe('\\u001b[2J\\u001b]52;c;cGF5bG9hZA==\\u0007');
    expect(displayText('name\nApply complete!\r')).toBe('name\\u000aApply complete!\\u000d');
    expect(displayText('evil\u202Etxt.exe\u009b')).toBe('evil\\u202etxt.exe\\u009b');
  });
});
