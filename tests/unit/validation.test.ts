import { describe, expect, it } from 'vitest';
import {
  confirmMessage,
  emailMessage,
  firstUsernameMessage,
  firstUsernameValid,
  loginCanSubmit,
  loginLooksActive,
  newEmailMessage,
  passwordMessage,
  passwordPairValid,
  registrationCanSubmit,
  usernameMessage,
  usernameInput,
} from '@/features/auth/lib/validation';
import { EMAIL_MAX, isValidEmail, isValidUsername, usernameCharsProblem, usernameKey } from '@shared/validation';
import { en, load } from './locale-helpers';

const text = (key: string | null) => (key ? en(`auth:${key}`) : null);

describe('spec §5 e-mail rules', () => {
  it('accepts the loose pattern and says "Enter a valid email" otherwise', () => {
    expect(emailMessage('')).toBeNull();
    expect(emailMessage('a@b.co')).toBeNull();
    expect(emailMessage('  a@b.co ')).toBeNull();
    for (const bad of ['plain', 'a@b', 'a b@c.d', '@b.c']) expect(text(emailMessage(bad))).toBe('Enter a valid email');
  });
  it("takes one plain address only (the shared rule the API applies), still with the spec's messages", () => {
    for (const ok of ['a@b.co', "o'brien@x.com", 'first.last+tag@sub.example.org', 'jõgeva@jõgeva.ee'])
      expect(isValidEmail(ok), ok).toBe(true);
    const lists = [
      'a@x.com,b@y.com',
      'x<c@z.com>@y.com',
      '"a b"@x.com',
      'a@x.com b@y.com',
      'a@x.com;b@y.com',
      'Eve <e@x.com>',
      'a@b@x.com',
      '(c)a@x.com',
      'a@[10.0.0.1]',
      'g:a@x.com;',
      'a\u0085@x.com',
      'a\u200b@x.com',
      'a\u2028@x.com',
      'a@x..com',
      'a@x.com.',
    ];
    for (const bad of lists) {
      expect(isValidEmail(bad), bad).toBe(false);
      expect(text(emailMessage(bad)), bad).toBe('Enter a valid email');
      expect(text(newEmailMessage(bad)), bad).toBe('invalid email');
    }
    const longest = `${'a'.repeat(64)}@${'b'.repeat(EMAIL_MAX - 69)}.com`;
    expect(longest).toHaveLength(EMAIL_MAX);
    expect(isValidEmail(longest)).toBe(true);
    expect(isValidEmail(`a${longest}`)).toBe(false);
  });
  it('update e-mail: required when empty, "invalid email" when malformed, fine when the trimmed value is valid', () => {
    expect(text(newEmailMessage(''))).toBe('Email is required');
    expect(text(newEmailMessage('   '))).toBe('Email is required');
    expect(text(newEmailMessage('nope'))).toBe('invalid email');
    expect(newEmailMessage(' me@x.io ')).toBeNull();
  });
});

describe('spec §5 password rules', () => {
  it('needs 8+ characters with a letter and a digit', () => {
    expect(passwordMessage('abc12345')).toBeNull();
    for (const bad of ['abc1234', 'abcdefgh', '12345678'])
      expect(text(passwordMessage(bad))).toBe('Use 8 or more characters mixing letters and numbers');
  });
  it('the repeat must match and also follow the rule', () => {
    expect(text(confirmMessage('abc12345', 'abc12346'))).toBe('Passwords do not match');
    expect(confirmMessage('abc12345', 'abc12345')).toBeNull();
    expect(text(confirmMessage('abcdefgh', 'abcdefgh'))).toBe('Use 8 or more characters mixing letters and numbers');
    expect(confirmMessage('abc12345', '')).toBeNull();
  });
  it('a password pair is valid only when both are filled, valid and equal', () => {
    expect(passwordPairValid('abc12345', 'abc12345')).toBe(true);
    expect(passwordPairValid('abc12345', '')).toBe(false);
    expect(passwordPairValid('abcdefgh', 'abcdefgh')).toBe(false);
    expect(passwordPairValid('abc12345', 'abc123456')).toBe(false);
  });
});

describe('spec §5 login', () => {
  it('the button looks active with a valid e-mail and a password longer than 1 character', () => {
    expect(loginLooksActive('a@b.co', 'xy')).toBe(true);
    expect(loginLooksActive('a@b.co', 'x')).toBe(false);
    expect(loginLooksActive('a@b', 'xyz')).toBe(false);
  });
  it('submitting needs the password rule too (else "incorrect credentials")', () => {
    expect(loginCanSubmit('a@b.co', 'xy')).toBe(false);
    expect(loginCanSubmit('a@b.co', 'abc12345')).toBe(true);
    expect(en('auth:login.incorrect')).toBe('Incorrect credentials');
  });
});

describe('spec §5 registration', () => {
  const base = { email: 'a@b.co', password: 'abc12345', confirm: 'abc12345', agreed: true };
  it('submit is active only with a valid e-mail, no password errors and all three fields filled', () => {
    expect(registrationCanSubmit(base)).toBe(true);
    expect(registrationCanSubmit({ ...base, email: 'x' })).toBe(false);
    expect(registrationCanSubmit({ ...base, confirm: '' })).toBe(false);
    expect(registrationCanSubmit({ ...base, confirm: 'abc12346' })).toBe(false);
    expect(registrationCanSubmit({ ...base, password: 'short1', confirm: 'short1' })).toBe(false);
  });
});

describe('spec §5 usernames', () => {
  it('first-time: required when empty, too short under 4, exactly 4 shows nothing but is not valid, >4 activates', () => {
    expect(text(firstUsernameMessage(''))).toBe('Username is required');
    expect(text(firstUsernameMessage('abc'))).toBe('Username is too short');
    expect(firstUsernameMessage('abcd')).toBeNull();
    expect(firstUsernameValid('abcd')).toBe(false);
    expect(firstUsernameValid('  abcd  ')).toBe(false);
    expect(firstUsernameValid('abcde')).toBe(true);
    expect(firstUsernameValid('a'.repeat(16))).toBe(false);
  });
  it('update: 5 to 15 characters', () => {
    expect(text(usernameMessage('abcd'))).toBe('Username must be at least 5 characters');
    expect(usernameMessage('abcde')).toBeNull();
    expect(usernameMessage('a'.repeat(15))).toBeNull();
    expect(text(usernameMessage('a'.repeat(16)))).toBe('Username must be at most 15 characters');
    expect(en('auth:validation.usernameError', { message: 'bad' })).toBe('Username error: bad');
  });

  it('refuses control, format and separator characters and whatever NFKC would change, with a message in both languages', () => {
    const bad = {
      invalid_characters: [
        'ad\u200bmin1',
        'ad\u202emin1',
        'ad\u2066min1',
        'ad\u0085min1',
        'ad\u0000min1',
        'ad\u00a0min1',
        'ad\u3000min1',
        'ad\u2028min1',
        'ad\ufeffmin1',
        'ad\u00admin1',
        'big  miner',
        'x\ue000yzab',
      ],
      not_normalized: ['ａｄｍｉｎ', 'ﬁnder1', 'x²abcd', 'e\u0301clair', 'Ⅻpower', 'ｐｌａｙｅｒ'],
    };
    for (const [problem, names] of Object.entries(bad)) {
      for (const name of names) {
        expect(usernameCharsProblem(name), JSON.stringify(name)).toBe(problem);
        expect(isValidUsername(name), JSON.stringify(name)).toBe(false);
        expect(usernameMessage(name), JSON.stringify(name)).toBe('validation.usernameCharacters');
        expect(firstUsernameValid(name), JSON.stringify(name)).toBe(false);
      }
    }
    expect(firstUsernameMessage('ａｄｍｉｎ')).toBe('validation.usernameCharacters');
    for (const ok of ['admin1', 'Ärger1', 'Пётр_1', 'miner_2024', '_x_y_z_']) {
      expect(usernameCharsProblem(ok), ok).toBeNull();
      expect(usernameMessage(ok), ok).toBeNull();
    }
    expect(text(usernameMessage('ａｄｍｉｎ'))).toBe('Username contains invisible or look-alike characters');
    const ruText = (load('ru', 'auth').validation as Record<string, string>).usernameCharacters;
    expect(ruText).toMatch(/[а-я]/);
  });
  it('UTS #39: letters of one script (Latin or Cyrillic) with digits and `_`, no invisible or combining marks', () => {
    const bad = {
      mixed_scripts: ['\u0430dmin7042', 'admin\u04307042', 'Пётрpetr'],
      invalid_characters: [
        'ad\u034fmin7042',
        '\u115fadmin7042',
        'admin\u28007042',
        'a\u0336dmin7042',
        '\u2800'.repeat(5),
        'big miner',
        '玩家一号玩家',
        "o'neil",
        'x-ray.9',
        'ΟΔΟΣ1',
        'admin\u2060x',
      ],
    };
    for (const [problem, names] of Object.entries(bad)) {
      for (const name of names) {
        expect(usernameCharsProblem(name), JSON.stringify(name)).toBe(problem);
        expect(usernameMessage(name), JSON.stringify(name)).toBe('validation.usernameCharacters');
      }
    }
  });
  it('the key is the confusable skeleton: look-alikes of a name, across scripts and case, share its key', () => {
    const admin = usernameKey('admin7042');
    for (const alike of [
      '\u0430dmin7042',
      'ADMIN7042',
      'adm1n7042',
      'admln7042',
      'admIn7042',
      'adrnin7042',
      'admin7O42',
      '\u0430\u0501m\u0456n7042',
    ]) {
      expect(usernameKey(alike), JSON.stringify(alike)).toBe(admin);
    }
    // Whole-Cyrillic names that read as Latin ones.
    expect(usernameKey('\u0430\u0441\u0435_12')).toBe(usernameKey('ace_12'));
    expect(usernameKey('\u0420\u041e\u0421\u0422')).toBe(usernameKey('poct'));
    expect(usernameKey('admin7042')).not.toBe(usernameKey('admin7043'));
    expect(usernameKey('Пётр_1')).not.toBe(usernameKey('Петр_1'));
  });
  it('the field composes what is typed (an accent typed as a separate mark is fine) and caps it at 15', () => {
    expect(usernameInput('e\u0301clair')).toBe('\u00e9clair');
    expect(usernameMessage(usernameInput('e\u0301clair1'))).toBeNull();
    expect(usernameInput('a'.repeat(20))).toHaveLength(15);
  });
  it('compares names by one key on every database: case, full-width and ligature forms fold together', () => {
    expect(usernameKey('Ärger1')).toBe(usernameKey('ärger1'));
    expect(usernameKey('ÄRGER1')).toBe(usernameKey('ärger1'));
    expect(usernameKey('ａｄｍｉｎ')).toBe(usernameKey('ADMIN'));
    expect(usernameKey('Straße1')).toBe(usernameKey('STRASSE1'));
    expect(usernameKey('ΟΔΟΣ1')).toBe(usernameKey('οδοσ1'));
    expect(usernameKey('admin1')).not.toBe(usernameKey('admin2'));
  });
});
