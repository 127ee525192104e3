import { displayText, jsonText } from './display-text';

describe('displayText', () => {
  it('shows what a terminal would obey, and leaves the rest as it is', () => {
    expect(displayText('Contoso GmbH – Köln 東京')).toBe('Contoso GmbH – Köln 東京');
    expect(displayText('\u001b[2J\u001b]52;c;cGF5bG9hZA==\u0007')).toBe('\\u001b[2J\\u001b]52;c;cGF5bG9hZA==\\u0007');
    expect(displayText('name\nApply complete!\r')).toBe('name\\u000aApply complete!\\u000d');
    expect(displayText('evil\u202Etxt.exe\u009b')).toBe('evil\\u202etxt.exe\\u009b');
  });
});

describe('jsonText', () => {
  it('writes DEL, C1 controls and bidirectional marks as escapes: the same value, nothing a terminal acts on', () => {
    const value = { name: 'a\u202eb\u0085c\u007f', plain: 'é ü 漢' };
    const text = jsonText(value, 2);
    expect(text).not.toMatch(/[\u007f-\u009f\u202e]/);
    expect(text).toContain('a\\u202eb\\u0085c\\u007f');
    expect(JSON.parse(text)).toEqual(value);
    expect(text).toContain('é ü 漢');
  });
});
