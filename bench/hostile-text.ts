/**
 * Hostile text for the linear-time tests (`test/redaction-linear-time.test.ts`) and their figures
 * (`bench/hostile-times.ts`): for each secret rule, long runs of the characters it reads with a
 * near miss (a start that almost matches, a missing terminator) repeated or at the end, each shape made
 * `n` characters long. A rule that retries from every start of a run costs the square of the run on these.
 */

/** `unit` repeated to `n` characters (cut), then `tail`. */
const fill = (unit: string, n: number, tail = ''): string => unit.repeat(Math.ceil(Math.max(0, n - tail.length) / unit.length)).slice(0, Math.max(0, n - tail.length)) + tail;

/** Named makers of hostile text of `n` characters. */
export const HOSTILE_SHAPES: Readonly<Record<string, (n: number) => string>> = {
  // JSON Web Tokens: many `eyJ` starts inside one base64url run, a dot missing
  'eyJ-eyJ-...': (n) => fill('eyJ-', n),
  'eyJ then a run, no dot': (n) => 'eyJ' + fill('a', n - 3),
  'eyJxxxxxxxx. repeated': (n) => fill('eyJaaaaaaaa.', n),
  'eyJ...x.y. (no third segment)': (n) => fill('eyJaaaaaaaa.bbbbbbbb. ', n),
  // URL credentials: long schemes, users and passwords without the @
  'a.a.a...://': (n) => fill('a.', n, '://'),
  'a-a-a...://': (n) => fill('a-', n, '://'),
  'a+a+a...://u:p': (n) => fill('a+', n, '://u:p'),
  '://a: repeated': (n) => fill('://a:', n),
  'x://u: then a password run, no @': (n) => 'x://u:' + fill('p', n - 6),
  'x://u:p x://u:p ...': (n) => fill('x://u:p:', n),
  // keys known by their prefix: starts that fall short
  'sk- and 15 characters, repeated': (n) => fill('sk-aaaaaaaaaaaaaaa ', n),
  'sk-sk-sk-...': (n) => fill('sk-', n),
  'AIza-AIza-...': (n) => fill('AIza-', n),
  'AKIA then 15 capitals, repeated': (n) => fill('AKIAAAAAAAAAAAAAAAA ', n),
  'ghp_ghp_...': (n) => fill('ghp_', n),
  'xoxb-xoxb-...': (n) => fill('xoxb-', n),
  'sk_live_ and 15 characters, repeated': (n) => fill('sk_live_aaaaaaaaaaaaaaa ', n),
  'SG. and a 16-character segment, repeated': (n) => fill('SG.aaaaaaaaaaaaaaaa.', n),
  'AIza and 34 characters, repeated': (n) => fill(`AIza${'b'.repeat(34)} `, n),
  '39 base64 characters, repeated': (n) => fill(`${'aB3+'.repeat(10).slice(0, 39)} `, n),
  // auth schemes: a keyword, a long white-space run, no credential
  'token then white space': (n) => 'token' + fill(' ', n - 5),
  'token token token ...': (n) => fill('token ', n),
  'Basic and a word of 8 or more, repeated': (n) => fill('Basic functionality ', n),
  'Authorization: then spaces, quotes and Basic, repeated': (n) => fill('Authorization: " \\\' Basic abcdefghij ', n),
  'Bearer then tabs and a short word': (n) => 'Bearer' + fill('\t', n - 6, 'abc'),
  // secret-named keys: separators, white space and quotes without a value
  'password= repeated': (n) => fill('password=', n),
  'password then spaces, no separator': (n) => 'password' + fill(' ', n - 8),
  'password: then spaces': (n) => 'password:' + fill(' ', n - 9),
  'password:" repeated': (n) => fill('password:"', n),
  "password:' then a run, no closing quote": (n) => "password:'" + fill('a', n - 10),
  'password=( repeated (code, not a secret)': (n) => fill('password=(', n),
  'token=settings.x token=settings.x ...': (n) => fill('token=settings.x ', n),
  'api_key=a, repeated': (n) => fill('api_key=a,', n),
  'tokentokentoken...': (n) => fill('token', n),
  'password: " then 255 characters, repeated': (n) => fill(`password: "${'c'.repeat(255)}\n`, n),
  'aws_secret_access_key then spaces': (n) => 'aws_secret_access_key' + fill(' ', n - 21),
  '--password --password ...': (n) => fill('--password ', n),
  // private key blocks: markers that almost close
  '-----BEGIN then capitals': (n) => '-----BEGIN ' + fill('A', n - 11),
  '-----BEGIN repeated': (n) => fill('-----BEGIN ', n),
  'BEGIN block then END markers that fail': (n) => '-----BEGIN RSA PRIVATE KEY-----' + fill('-----END RSA ', n - 31),
  // where a token starts: escapes and encoded bytes before prefixes, prefixes glued to words
  '\\nghp_ and 19 characters, repeated': (n) => fill('\\nghp_aaaaaaaaaaaaaaaaaaa', n),
  '%3Dsk- and 15 characters, repeated': (n) => fill('%3Dsk-aaaaaaaaaaaaaaa', n),
  'disk-disk-...': (n) => fill('disk-', n),
  '\\u001beyJ-\\u001beyJ-...': (n) => fill('\\u001beyJ-', n),
  // AWS secret keys: runs of 40 that are not keys, with and without context
  '\\n and 40 base64 characters, repeated': (n) => fill(`\\n${'aB3+'.repeat(10)} `, n),
  'paths of 40, repeated': (n) => fill('/Users/jdoe/Projects/github/dotfiles/zsh ', n),
  'AKIA ids and runs of 40 of low entropy, repeated': (n) => fill(`AKIAIOSFODNN7EXAMPLE ${'aB3+'.repeat(10)} `, n),
  'secret and base64 of text, repeated': (n) => fill('secret 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 ', n),
  // long runs of each rule's characters
  'base64 run': (n) => fill('aB3+/', n),
  'base64url run with dots': (n) => fill('aB3_-.', n),
  'white space': (n) => fill(' \t\n', n),
  // hostile6's rules: prefixes whose body may hold the prefix itself, env names, webhook hosts
  'PMAK-PMAK-... (a run of 39 each)': (n) => fill(`PMAK-${'a'.repeat(34)} `, n),
  'ya29.ya29.ya29....': (n) => fill('ya29.', n),
  'hooks.slack.com/services/ repeated': (n) => fill('https://hooks.slack.com/services/', n),
  'A_AUTH= repeated': (n) => fill('A_AUTH=', n),
  'A_KEY=( repeated': (n) => fill('A_KEY=(', n),
  'dapi and 31 hex, repeated': (n) => fill(`dapi${'a'.repeat(31)} `, n),
  // hostile7's rules: service tokens without a prefix, SAS fields, URL users, .netrc keywords
  '1234567:AA repeated (one digit short)': (n) => fill('1234567:AA', n),
  '12345678:AA and 34 characters, repeated': (n) => fill(`12345678:AA${'b'.repeat(32)} `, n),
  'M and 26 characters then .abcdef., repeated': (n) => fill(`M${'a'.repeat(25)}.abcdef.`, n),
  'MMMM...': (n) => fill('M', n),
  '&se=&sig= repeated': (n) => fill('&se=&sig=', n),
  '&sig= and 15 characters, repeated': (n) => fill('&sv=&sig=aaaaaaaaaaaaaaa', n),
  ':// and 31 base64url characters then @, repeated': (n) => fill(`://${'a'.repeat(31)}@`, n),
  'machine a.b login u password repeated': (n) => fill('machine a.b login u password ', n),
  'login password login password ...': (n) => fill('login password ', n),
  'SK and 31 hex, repeated': (n) => fill(`SK${'a'.repeat(31)} `, n),
  'key-key-key-...': (n) => fill('key-', n),
  // hostile8's: a SAS field after the signature, digits before a Telegram token, Twilio's context
  '?sig= and 16 characters, then &sv= far after, repeated': (n) => fill(`?sig=${'a'.repeat(16)}${'b'.repeat(40)}&sv=`, n),
  'sig=16 characters& repeated, one &sv= at the end': (n) => fill(`&sig=${'a'.repeat(16)}`, n - 4) + '&sv=',
  'digits then :AA and 35 characters, repeated': (n) => fill(`${'1'.repeat(20)}:AA${'b'.repeat(33)}`, n),
  'twilio then quoted 32 hex, repeated': (n) => fill(`twilio '${'a'.repeat(32)}' `, n),
  "one twilio, then '32 hex' repeated on one line": (n) => 'twilio ' + fill(`'${'a'.repeat(32)}'`, n - 7),
  'quoted 32 hex and line breaks, twilio at the end': (n) => fill(`"${'a'.repeat(32)}"\n`, n - 6) + 'twilio',
  // hostile10's: secrets split by U+FFFD (an invalid byte), the rules run again over the text without it
  'U+FFFD U+FFFD ...': (n) => fill('\uFFFD', n),
  'ghp_ and 18 characters, U+FFFD, repeated': (n) => fill(`ghp_${'a'.repeat(18)}\uFFFD`, n),
  'a mix of every trigger, U+FFFD between each': (n) => fill('sk-a\uFFFD eyJ-\uFFFD ://a:\uFFFD token\uFFFD password=\uFFFD -----BEGIN\uFFFD AIza\uFFFD ghp_\uFFFD ', n),
  'a mix of every trigger': (n) => fill('sk-a eyJ- ://a: token password= -----BEGIN AIza ghp_ xoxb- Bearer 1:AA &sv=&sig= machine login ', n),
};
