import { callFailed, define } from './spec';

export const numericFunctions = {
  abs: define({ params: [['num', 'number']], body: ([n]) => Math.abs(n) }),
  // `+ 0` turns the -0 of ceil(-0.5) into 0, as Terraform's integer result is.
  ceil: define({
    params: [['num', 'number']],
    body: ([n]) => Math.ceil(n) + 0,
  }),
  floor: define({
    params: [['num', 'number']],
    body: ([n]) => Math.floor(n) + 0,
  }),
  signum: define({ params: [['num', 'number']], body: ([n]) => Math.sign(n) }),
  pow: define({
    params: [
      ['num', 'number'],
      ['power', 'number'],
    ],
    body: ([n, p]) => n ** p,
  }),
  log: define({
    params: [
      ['num', 'number'],
      ['base', 'number'],
    ],
    body: ([n, b]) => Math.log(n) / Math.log(b),
  }),
  max: define({
    params: [],
    variadic: ['numbers', 'number'],
    body: (_, numbers, call) => (numbers.length ? Math.max(...numbers) : callFailed(call, 'at least one number is required.')),
  }),
  min: define({
    params: [],
    variadic: ['numbers', 'number'],
    body: (_, numbers, call) => (numbers.length ? Math.min(...numbers) : callFailed(call, 'at least one number is required.')),
  }),
  parseint: define({
    params: [
      ['number', 'string'],
      ['base', 'number'],
    ],
    body: ([text, base], _, call) => {
      if (!Number.isInteger(base) || base < 2 || base > 62) callFailed(call, 'base must be a whole number between 2 and 62.');
      const digits = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'.slice(0, base);
      const m = /^([-+]?)(.+)$/.exec(text);
      const body = base <= 36 ? m?.[2].toLowerCase() : m?.[2];
      if (!m || !body || [...body].some((d) => !digits.includes(d))) callFailed(call, `cannot parse "${text}" as a base ${base} integer.`);
      const value = [...body].reduce((total, d) => total * base + digits.indexOf(d), 0);
      return m[1] === '-' ? -value : value;
    },
  }),
};
