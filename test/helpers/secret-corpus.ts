/**
 * The redaction corpus (issue 30, item 4; issue 28, item 13): secrets that must go, each vendor shape in
 * every context a key is found in (start of text, after a real or JSON-escaped line break, after `_`, a
 * digit, `%3D`, `=`, `:`, quotes, inside JSON strings and URL query strings, after `Authorization:
 * Bearer`, in env assignments), secrets known by their context (PEM blocks, URL passwords, secret-named
 * keys), and ordinary text that must stay as it is (paths, git SHAs, sha256 and npm integrity hashes,
 * UUIDs, base64 of words, long identifiers, URLs without credentials, prose with trigger words).
 *
 * hostile6 added the shapes current in 2026 that were shown whole (Anthropic OAuth, OpenAI service account,
 * Slack app and refresh tokens, Google OAuth, Stripe webhook secrets, model vendors' keys, webhook URLs, PGP
 * blocks, Azure account keys, `.env` names ending `_KEY`, `_AUTH`, `_CREDENTIALS`).
 *
 * No real secret is committed: the secrets are made here, of the real shapes, from a seeded generator
 * (the same corpus on every run).
 */
import { createHash } from 'node:crypto';
import { SHOWN_RUN, type SecretShape } from './secret-shapes.js';
import { seededRandom } from '../../src/fingerprint/seeded-random.js';

/** A secret in its context: `text` holds `hidden`; redacted, `text` must read `redacted`. */
export interface CorpusSecret extends SecretShape {
  /** `text` as `redactSecrets` must give it back. */
  readonly redacted: string;
}

/** Ordinary text that redaction must give back unchanged. */
export interface CorpusText {
  readonly name: string;
  readonly text: string;
}


const random = seededRandom(30_4);
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64URL = `${ALNUM}-_`;
const B64 = `${ALNUM}+/`;
const HEX = '0123456789abcdef';

/** `n` characters of `alphabet`, at least one of each of `must` (letters and digits, as real keys have). */
function chars(alphabet: string, n: number, must: readonly string[] = [UPPER, LOWER, DIGITS]): string {
  for (;;) {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(random() * alphabet.length)];
    if (must.every((set) => [...s].some((c) => set.includes(c)))) return s;
  }
}

const base64url = (text: string): string => Buffer.from(text).toString('base64url');

/** A key of a vendor's shape, made up. */
interface VendorKey {
  readonly name: string;
  readonly value: string;
  /** A key with no prefix of its own cannot be told from the run it is glued to (a digit or `/` before it). */
  readonly bare?: boolean;
}

/** Every vendor shape the rules know, made up. */
export const VENDOR_KEYS: readonly VendorKey[] = [
  { name: 'AWS access key id', value: `AKIA${chars(UPPER + '234567', 16, [UPPER, '234567'])}` },
  { name: 'AWS secret access key', value: chars(B64, 40, [UPPER, LOWER, DIGITS, '+/']), bare: true },
  { name: 'GitHub token', value: `ghp_${chars(ALNUM, 36)}` },
  { name: 'GitHub app token', value: `ghs_${chars(ALNUM, 36)}` },
  { name: 'GitHub fine-grained token', value: `github_pat_11${chars(UPPER + DIGITS, 20, [UPPER, DIGITS])}_${chars(ALNUM, 59)}` },
  { name: 'OpenAI project key', value: `sk-proj-${chars(B64URL, 48)}` },
  { name: 'OpenAI key', value: `sk-${chars(ALNUM, 48)}` },
  { name: 'Anthropic key', value: `sk-ant-api03-${chars(B64URL, 93)}AA` },
  { name: 'Slack bot token', value: `xoxb-${chars(DIGITS, 12, [DIGITS])}-${chars(DIGITS, 13, [DIGITS])}-${chars(ALNUM, 24)}` },
  { name: 'Stripe secret key', value: `sk_live_${chars(ALNUM, 24)}` },
  { name: 'Stripe restricted key', value: `rk_test_${chars(ALNUM, 24)}` },
  { name: 'Google API key', value: `AIza${chars(B64URL, 35)}` },
  { name: 'JSON Web Token', value: `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(`{"sub":"${chars(DIGITS, 10, [DIGITS])}","name":"Ada","iat":1516239022}`)}.${chars(B64URL, 43)}` },
  { name: 'Hugging Face token', value: `hf_${chars(ALNUM, 34)}` },
  { name: 'GitLab token', value: `glpat-${chars(B64URL, 20)}` },
  { name: 'npm token', value: `npm_${chars(ALNUM, 36)}` },
  { name: 'SendGrid key', value: `SG.${chars(B64URL, 22)}.${chars(B64URL, 43)}` },
  // hostile6: shapes current in 2026 that were shown whole before
  { name: 'Anthropic OAuth token', value: `sk-ant-oat01-${chars(B64URL, 93)}AA` },
  { name: 'OpenAI service account key', value: `sk-svcacct-${chars(B64URL, 40)}T3BlbkFJ${chars(B64URL, 40)}` },
  { name: 'Slack app-level token', value: `xapp-1-A${chars(UPPER + DIGITS, 10, [UPPER, DIGITS])}-${chars(DIGITS, 13, [DIGITS])}-${chars('0123456789abcdef', 64, [DIGITS])}` },
  { name: 'Slack refresh token', value: `xoxe-1-${chars(ALNUM, 140)}` },
  { name: 'Google OAuth access token', value: `ya29.a0${chars(B64URL, 150)}` },
  { name: 'Google OAuth client secret', value: `GOCSPX-${chars(B64URL, 28)}` },
  { name: 'Stripe webhook secret', value: `whsec_${chars(ALNUM, 32)}` },
  { name: 'GitLab runner token', value: `glrt-${chars(B64URL, 20)}` },
  { name: 'PyPI token', value: `pypi-AgEIcHlwaS5vcmc${chars(B64URL, 60)}` },
  { name: 'Groq key', value: `gsk_${chars(ALNUM, 52)}` },
  { name: 'xAI key', value: `xai-${chars(ALNUM, 80)}` },
  { name: 'Perplexity key', value: `pplx-${chars(ALNUM, 48)}` },
  { name: 'Replicate token', value: `r8_${chars(ALNUM, 37)}` },
  { name: 'DigitalOcean token', value: `dop_v1_${chars('0123456789abcdef', 64, [DIGITS])}` },
  { name: 'Shopify token', value: `shpat_${chars('0123456789abcdef', 32, [DIGITS])}` },
  { name: 'Supabase token', value: `sbp_${chars('0123456789abcdef', 40, [DIGITS])}` },
  { name: 'Sentry token', value: `sntrys_${base64url(`{"iat":1694033037.7,"url":"https://sentry.io","org":"${chars(LOWER, 8, [LOWER])}"}`)}_${chars(B64URL, 43)}` },
  { name: 'Notion token', value: `ntn_${chars(ALNUM, 46)}` },
  { name: 'Atlassian token', value: `ATATT3xFfGF0${chars(B64URL, 180)}` },
  { name: 'HashiCorp Vault token', value: `hvs.${chars(B64URL, 90)}` },
  { name: 'Doppler token', value: `dp.pt.${chars(ALNUM, 43)}` },
  { name: 'Postman key', value: `PMAK-${chars('0123456789abcdef', 24, [DIGITS])}-${chars('0123456789abcdef', 34, [DIGITS])}` },
  { name: 'Databricks token', value: `dapi${chars('0123456789abcdef', 32, [DIGITS])}` },
  { name: 'age secret key', value: `AGE-SECRET-KEY-1${chars('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58, ['QPZRYXGFTVDWSJNKHCEMUAL', '9820354'])}` },
  // hostile7: service tokens of 2026 still shown whole
  { name: 'Telegram bot token', value: `${chars(DIGITS, 10, [DIGITS])}:AA${chars(B64URL, 33)}`, bare: true },
  { name: 'Discord bot token', value: `${base64url(`1${chars(DIGITS, 18, [DIGITS])}`)}.${chars(B64URL, 6)}.${chars(B64URL, 38)}` },
  { name: 'Mailgun key', value: `key-${chars(HEX, 32, [DIGITS])}` },
  { name: 'Twilio API key', value: `SK${chars(HEX, 32, [DIGITS])}` },
  { name: 'Twilio account SID and auth token', value: `AC${chars(HEX, 32, [DIGITS])}:${chars(HEX, 32, [DIGITS])}` },
  { name: 'LangSmith key', value: `lsv2_pt_${chars(HEX, 32, [DIGITS])}_${chars(HEX, 10, [DIGITS])}` },
  { name: 'Tavily key', value: `tvly-dev-${chars(ALNUM, 32)}` },
  { name: 'Pinecone key', value: `pcsk_${chars(ALNUM, 5)}_${chars(ALNUM, 63)}` },
  { name: 'Linear key', value: `lin_api_${chars(ALNUM, 40)}` },
  { name: 'Heroku key', value: `HRKU-AA${chars(B64URL, 58)}` },
  { name: 'Tailscale key', value: `tskey-auth-k${chars(ALNUM, 12)}-${chars(ALNUM, 33)}` },
  { name: 'Grafana service account token', value: `glsa_${chars(ALNUM, 32)}_${chars(HEX, 8, [DIGITS])}` },
  { name: 'New Relic user key', value: `NRAK-${chars(UPPER + DIGITS, 27, [UPPER, DIGITS])}` },
  { name: 'PlanetScale token', value: `pscale_tkn_${chars(B64URL, 43)}` },
  { name: 'Figma token', value: `figd_${chars(B64URL, 40)}` },
  { name: 'Mapbox secret token', value: `sk.${base64url(`{"u":"${chars(LOWER, 8, [LOWER])}","a":"${chars(ALNUM, 12)}"}`)}.${chars(B64URL, 22)}` },
];

/** A context a key is found in: the text around it. */
interface KeyContext {
  readonly name: string;
  readonly wrap: (key: string) => string;
  /** Not for keys without a prefix: a run they are glued to cannot be told from them. */
  readonly prefixedOnly?: boolean;
}

/** Every context each vendor key is put in. */
export const KEY_CONTEXTS: readonly KeyContext[] = [
  { name: 'alone', wrap: (k) => k },
  { name: 'at the start of a line', wrap: (k) => `first line\n${k}\nlast line` },
  { name: 'after an escaped line break in JSON text', wrap: (k) => `{"command":"cat > .env <<EOF\\n${k}\\nEOF"}` },
  { name: 'after an escaped tab', wrap: (k) => `"key:\\t${k}"` },
  { name: 'after an escaped character', wrap: (k) => `"\\u001b${k}"` },
  { name: 'after _', wrap: (k) => `OPENAI_${k}` },
  { name: 'after a digit', wrap: (k) => `v2${k}`, prefixedOnly: true },
  { name: 'after %3D in a URL', wrap: (k) => `https://example.com/callback?state=xyz%26code%3D${k}&next=%2F` },
  { name: 'after =', wrap: (k) => `CREDENTIAL=${k}` },
  { name: 'after :', wrap: (k) => `credential:${k}` },
  { name: 'in double quotes', wrap: (k) => `echo "${k}"` },
  { name: "in single quotes", wrap: (k) => `export X='${k}'` },
  { name: 'inside a JSON string', wrap: (k) => JSON.stringify({ note: `use ${k} for the deploy` }) },
  { name: 'inside JSON inside JSON', wrap: (k) => JSON.stringify({ body: JSON.stringify({ value: k }) }) },
  { name: 'in a URL query string', wrap: (k) => `https://api.example.com/v1/items?q=${k}&page=2` },
  { name: 'in a URL path', wrap: (k) => `https://hooks.example.com/services/${k}`, prefixedOnly: true },
  { name: 'after Authorization: Bearer', wrap: (k) => `curl -H "Authorization: Bearer ${k}" https://api.example.com` },
  { name: 'in an env assignment', wrap: (k) => `API_KEY=${k} npm run deploy` },
  { name: 'in a sentence', wrap: (k) => `The key (${k}) was rotated.` },
];

const REDACTED = '[REDACTED]';
const secret = (name: string, text: string, hidden: string, redacted = text.replace(hidden, REDACTED)): CorpusSecret => ({ name, text, hidden, redacted });

/** Opaque values with no shape of their own (passwords, tokens), made up. */
const opaque = (n = 32): string => chars(ALNUM, n);
const pem = (label: string): { block: string; body: string } => {
  const body = [chars(B64, 64), chars(B64, 64), `${chars(B64, 40)}==`].join('\n');
  return { block: `-----BEGIN ${label}-----\n${body}\n-----END ${label}-----`, body };
};

/** Secrets known by what stands around them. */
function contextSecrets(): CorpusSecret[] {
  const out: CorpusSecret[] = [];
  const bearer = opaque(40);
  out.push(secret('Bearer credential', `Authorization: Bearer ${bearer}`, bearer));
  const basic = Buffer.from('deploy:correcthorse').toString('base64');
  out.push(secret('Basic credential in a header', `curl -H 'Authorization: Basic ${basic}' https://ci.example.com`, basic));
  const header = opaque();
  out.push(secret('Bearer credential in JSON', JSON.stringify({ headers: { authorization: `Bearer ${header}` } }), header));
  const rsa = pem('RSA PRIVATE KEY');
  out.push(secret('PEM private key', rsa.block, rsa.body, REDACTED));
  const ssh = pem('OPENSSH PRIVATE KEY');
  out.push(secret('PEM private key in JSON text', JSON.stringify({ content: ssh.block }), JSON.stringify(ssh.body).slice(1, -1), JSON.stringify({ content: REDACTED })));
  const live = `sk-live-${opaque(24)}`;
  out.push(secret('env assignment of an sk-live key', `API_KEY=${live}`, live));
  const dbPass = opaque(20);
  out.push(secret('env assignment of a password', `DATABASE_PASSWORD=${dbPass} ./migrate`, dbPass));
  const aws = chars(B64, 40, [UPPER, LOWER, DIGITS, '/']);
  out.push(secret('AWS secret key in an env assignment', `AWS_SECRET_ACCESS_KEY=${aws}`, aws));
  out.push(secret('AWS secret key after aws configure', `aws configure set aws_secret_access_key ${aws}`, aws));
  const id = VENDOR_KEYS[0]?.value as string;
  out.push(secret('AWS secret key beside its key id', `id ${id}, key ${aws}`, aws, `id ${REDACTED}, key ${REDACTED}`));
  out.push(secret('AWS secret key in JSON', JSON.stringify({ SecretAccessKey: aws, Expiration: '2026-12-01' }), aws));
  const pg = opaque(18);
  out.push(secret('URL password', `postgres://app:${pg}@db.internal:5432/app`, pg));
  const redis = opaque(24);
  out.push(secret('URL password without a user', `REDIS_URL=redis://:${redis}@cache.internal:6379/0`, redis));
  const ghs = VENDOR_KEYS[3]?.value as string;
  // `token:` is a secret-named key too, whose bare value runs to white space (it may hold `@` and `/`)
  out.push(secret('token as a URL password', `git clone https://x-access-token:${ghs}@github.com/org/repo.git`, ghs, `git clone https://x-access-token:${REDACTED}`));
  const query = opaque();
  out.push(secret('access token in a query string', `https://api.example.com/v1/me?access_token=${query}&fields=id`, query));
  const client = opaque();
  out.push(secret('client secret in a form body', `grant_type=client_credentials&client_secret=${client}&scope=read`, client));
  const pw = 'correct horse, battery staple';
  out.push(secret('quoted password with spaces', JSON.stringify({ user: 'ada', password: pw }), pw));
  const apiKey = opaque();
  out.push(secret('apiKey in JSON', JSON.stringify({ apiKey, region: 'eu' }), apiKey));
  const flag = opaque(16);
  out.push(secret('password flag', `mysql -u root --password ${flag} app`, flag));
  // hostile6
  const pgp = pem('PGP PRIVATE KEY BLOCK');
  out.push(secret('OpenPGP private key block', `gpg --import <<EOF\n${pgp.block}\nEOF`, pgp.body, `gpg --import <<EOF\n${REDACTED}\nEOF`));
  const slackHook = `T${chars(UPPER + DIGITS, 8, [UPPER, DIGITS])}/B${chars(UPPER + DIGITS, 10, [UPPER, DIGITS])}/${opaque(24)}`;
  out.push(secret('Slack webhook URL', `curl -X POST https://hooks.slack.com/services/${slackHook} -d '{"text":"done"}'`, slackHook));
  const discordHook = `${chars(DIGITS, 18, [DIGITS])}/${chars(B64URL, 68)}`;
  out.push(secret('Discord webhook URL', JSON.stringify({ url: `https://discord.com/api/webhooks/${discordHook}` }), discordHook));
  const azure = `${chars(B64, 86, [UPPER, LOWER, DIGITS, '+/'])}==`;
  out.push(secret('Azure storage account key', `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${azure};EndpointSuffix=core.windows.net`, azure));
  const creds = opaque(30);
  out.push(secret('env assignment of credentials', `GOOGLE_CREDENTIALS=${creds} ./deploy`, creds));
  const npmAuth = opaque(30);
  out.push(secret('env assignment of an auth value', `export NPM_AUTH=${npmAuth}`, npmAuth));
  const vendorKey = opaque(32);
  out.push(secret('.env line of a _KEY name', `MISTRAL_KEY=${vendorKey}\nDEBUG=1`, vendorKey));
  // hostile7
  const telegram = VENDOR_KEYS.find((k) => k.name === 'Telegram bot token')?.value as string;
  out.push(secret('Telegram bot token in the Bot API URL', `curl https://api.telegram.org/bot${telegram}/sendMessage -d chat_id=1`, telegram));
  const sig = `${opaque(40)}%2B${opaque(4)}%3D`;
  out.push(secret('Azure SAS signature', `az storage blob download --blob-url "https://acct.blob.core.windows.net/c/b.txt?sv=2022-11-02&ss=b&srt=o&sp=r&se=2026-12-31T00:00:00Z&spr=https&sig=${sig}"`, sig));
  const portalSig = `${opaque(43)}%3D`;
  out.push(secret("Azure SAS signature as the portal writes it", JSON.stringify({ url: `https://acct.queue.core.windows.net/q?sp=r&st=2026-12-01T00:00:00Z&se=2026-12-31T00:00:00Z&spr=https&sv=2024-05-04&sr=q&sig=${portalSig}` }), portalSig));
  const dsn = chars(HEX, 32, [DIGITS]);
  out.push(secret('Sentry DSN', `SENTRY_DSN=https://${dsn}@o450${chars(DIGITS, 12, [DIGITS])}.ingest.us.sentry.io/450${chars(DIGITS, 13, [DIGITS])}`, dsn));
  const netrc = opaque(20);
  const gho = chars('0123456789abcdef', 40, [DIGITS]);
  out.push(secret('token as a URL user', `git remote set-url origin https://${gho}@github.com/org/repo.git`, gho));
  out.push(secret('.netrc line', `machine api.heroku.com login ada@example.com password ${netrc}`, netrc));
  const netrcLines = opaque(24);
  out.push(secret('.netrc entry on several lines', `cat ~/.netrc\nmachine github.com\n  login ada\n  password ${netrcLines}\n`, netrcLines));
  // hostile8
  const sigFirst = `${opaque(40)}%2B${opaque(4)}%3D`;
  out.push(secret('Azure SAS signature before its fields', `curl -o b.txt "https://acct.blob.core.windows.net/c/b.txt?sig=${sigFirst}&sv=2022-11-02&se=2026-12-31T00:00:00Z&sp=r"`, `${sigFirst}&sv=`));
  out.push(secret('Telegram bot token glued after a digit', `echo 7${telegram} >> bots.txt`, telegram));
  const twilioToken = chars(HEX, 32, [DIGITS]);
  out.push(secret('Twilio auth token beside the account SID\'s name', `client = Client(account_sid, "${twilioToken}")`, twilioToken));
  const twilioJs = chars(HEX, 32, [DIGITS]);
  out.push(secret('Twilio auth token in the client\'s constructor', `const client = require('twilio')(process.env.SID, '${twilioJs}');`, twilioJs));
  return out;
}

/** Every secret of the corpus: each vendor key in each context, then the secrets known by their context. */
export const SECRET_CORPUS: readonly CorpusSecret[] = [
  ...VENDOR_KEYS.flatMap((k) =>
    KEY_CONTEXTS.filter((c) => k.bare !== true || c.prefixedOnly !== true).map((c) => {
      const text = c.wrap(k.value);
      // a key inside JSON inside JSON is escaped twice over: what is hidden is what the text holds
      return secret(`${k.name} ${c.name}`, text, k.value);
    }),
  ),
  ...contextSecrets(),
];

const sha = (algorithm: string, text: string, encoding: 'hex' | 'base64'): string => createHash(algorithm).update(text).digest(encoding);
const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** Ordinary text: none of it may be redacted. */
export const ORDINARY_CORPUS: readonly CorpusText[] = [
  { name: 'a macOS path of 40 characters', text: 'ls /Users/jdoe/Projects/github/dotfiles/zsh/.zshrc' },
  { name: 'the path of issue 28', text: 'cat /Users/name/Projects/github/dotfile/.config/nvim/init.lua' },
  { name: 'Java paths after escaped line breaks', text: '"src/main/App.java\\nsrc/test/java/perf/ObjectWriterTestBase.java\\n/src/test/java/perf/ObjectReaderTestBase.java"' },
  { name: 'a path with a CamelCase project', text: 'https://github.com/GoogleContainerTools/jib/issues/2920' },
  { name: 'a Windows path', text: 'C:\\Users\\Jane\\AppData\\Local\\Programs\\Microsoft VS Code\\Code.exe' },
  { name: 'a CI path', text: '/home/runner/work/loopwatch/loopwatch/src/text/secret-scan.ts:42:7' },
  { name: 'a git SHA', text: `git checkout ${sha('sha1', 'a', 'hex')} && git log -1` },
  { name: 'an upper-case git SHA', text: `SHA1 ${sha('sha1', 'b', 'hex').toUpperCase()}` },
  { name: 'git SHAs after an escaped line break', text: `"commits:\\n${sha('sha1', 'c', 'hex')}\\n${sha('sha1', 'd', 'hex')}"` },
  { name: 'a sha256', text: `sha256:${sha('sha256', 'e', 'hex')}` },
  { name: 'a docker digest', text: `node@sha256:${sha('sha256', 'f', 'hex')}` },
  { name: 'an npm integrity hash', text: `"integrity": "sha512-${sha('sha512', 'g', 'base64')}"` },
  { name: 'an sha1 integrity hash', text: `"integrity": "sha1-${sha('sha1', 'h', 'base64')}"` },
  { name: 'a UUID', text: 'request 123e4567-e89b-12d3-a456-426614174000 failed' },
  { name: 'a UUID in JSON', text: '{"id":"f47ac10b-58cc-4372-a567-0e02b2c3d479","ok":true}' },
  { name: 'base64 of 30 bytes of words', text: b64('the quick brown fox jumps over') },
  { name: 'base64 of a sentence', text: `echo ${b64('Hello world, this is a test ok')} | base64 -d` },
  { name: 'base64 of JSON', text: b64('{"name":"loopwatch","version":"1.0.0"}') },
  { name: 'a long CamelCase identifier', text: 'AbstractSingletonProxyFactoryBeanImpl2xy' },
  { name: 'a long camelCase identifier', text: 'getUserAccountSettingsForOrganization2x()' },
  { name: 'snake case with key words', text: 'test_should_not_redact_the_disk_key_value_pairs_in_risk_live_data' },
  { name: 'prefixes inside words', text: 'the disk-encryption-settings-manager and task-runner-for-desk-management-console' },
  { name: 'short prefixes', text: 'pip install sk-learn; hf_hub; npm_config_cache; SG.1; glpat-x' },
  { name: 'a URL without credentials', text: 'https://github.com/org/repo/blob/main/src/secret-scan.ts#L12' },
  { name: 'a URL with a query string', text: 'https://example.com/search?q=token+limits&page=2&sort=desc' },
  { name: 'an encoded URL', text: 'https://registry.npmjs.org/@scope%2fpkg/-/pkg-1.2.3.tgz' },
  { name: 'a localhost URL', text: 'http://localhost:3000/api/v1/users/42?expand=roles' },
  { name: 'an S3 URL', text: 'aws s3 cp /Users/jdoe/Projects/github/dotfiles/zsh s3://my-bucket/backups/' },
  { name: 'prose with Basic', text: 'Basic functionality works; the basic dimensionless test passes.' },
  { name: 'prose with token', text: 'The token generation step is slow: Token generated after 3 s.' },
  { name: 'prose with Bearer', text: 'Bearer authentication is described in RFC 6750.' },
  { name: 'prose with secret words', text: 'the form has a password field, a --password-file option and an api_key: "" entry' },
  { name: 'a Django model field', text: 'password = models.CharField(max_length=128)' },
  { name: 'a settings reference', text: 'secret = settings.SECRET_KEY; token = self.auth_token' },
  { name: 'a call as the value', text: 'passwd = conn_params.get("passwd") or token_generator.make_token(user)' },
  { name: 'JSON nulls and booleans', text: '{"api_key": null, "password": true, "token": false}' },
  { name: 'keyword arguments set to None', text: 'def check(password, secret=None, token=None):' },
  { name: 'shell variables', text: 'mysql --password=$DB_PASSWORD --user=app; curl -H "token: ${API_TOKEN}"' },
  { name: 'code constants named _KEY', text: 'SESSION_KEY = "_auth_user_id"; DIMENSION_KEY = "_ARRAY_DIMENSIONS"; PATTERN_KEY = Pattern.compile("[*,]")' },
  // hostile7: near misses of the service tokens
  { name: 'a cache key of an md5', text: `key: npm-cache-key-${sha('md5', 'i', 'hex')}` },
  { name: 'an XML type name after digits', text: 'clm12345:AgencyIdentificationCodeContentType and 12345678:AAbbreviationsList' },
  { name: 'a dotted identifier of Discord token lengths', text: 'NativeModuleRegistryHelper.select.someVeryLongFunctionNameForTests' },
  { name: 'minified code', text: '!function(e){var t={};function n(r){if(t[r])return t[r].exports}}(window);a.sig=b.sv=c;MTAxMjM0NTY3ODkwMTIzNDU2Nzg5.abcdef.x' },
  { name: 'a signature without a SAS', text: 'https://example.com/verify?sig=abcdefghijklmnop1234&user=1' },
  { name: 'a base64 image', text: `data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk.${sha('sha256', 'j', 'base64')}` },
  { name: 'prose about logins', text: 'Enter your login and password to continue; the machine restarts. A machine learning login page password reset; machine x login ada password' },
  { name: 'URLs with short users', text: 'git clone git@github.com:org/repo.git; https://x-access-token@github.com/org; ssh://deploy-user-for-production@host' },
  // hostile8: near misses of the Azure SAS after its signature, Telegram after digits, Twilio auth tokens
  { name: 'a signature, then a SAS field in another URL', text: 'curl "https://a.example.com/x?sig=abcdefghijklmnop1234" && curl "https://b.example.com/y?sv=2022-11-02"' },
  { name: 'digits, then a run of 34 after :AA', text: `build 12345678901:AA${'b'.repeat(31)}x ok` },
  { name: 'an md5 in quotes', text: `{"etag":"${sha('md5', 'k', 'hex')}","size":12}` },
  { name: 'a Twilio package pinned by its md5', text: `pip install twilio==9.3.0 --hash=md5:${sha('md5', 'l', 'hex')}` },
  { name: 'an md5 before the word Twilio', text: `{"checksum": "${sha('md5', 'm', 'hex')}", "package": "twilio"}` },
  { name: 'words near new prefixes', text: 'from django.forms.utils import flatatt; my_dapi_client; the dp.pt file; r8_init(); xai-grok is a model' },
];

const ORDINARY_TEXT = ORDINARY_CORPUS.map((t) => t.text).join('\n');

/**
 * The first run of 8 characters of `s.hidden` that `output` shows (JSON-escaped or not), or null; a run that
 * ordinary text of the corpus holds too (`sk_live_` of `risk_live_data`) says nothing and is not looked for.
 */
export function shownPart(output: string, s: SecretShape): string | null {
  for (const [part, escaped] of partsLookedFor(s.hidden)) if (output.includes(part) || output.includes(escaped)) return part;
  return null;
}

/** The runs of each hidden part looked for, by the hidden part: worked out once, not per output. */
const looked = new Map<string, readonly (readonly [string, string])[]>();

/**
 * The runs of {@link SHOWN_RUN} characters of `hidden` that ordinary text does not hold, in order, each with
 * its JSON-escaped form. Worked out once a secret: the table of every cut asks ~100,000 times, and looking
 * for each run in all the ordinary text each time took 7 of its 8 CPU seconds.
 */
function partsLookedFor(hidden: string): readonly (readonly [string, string])[] {
  let parts = looked.get(hidden);
  if (parts === undefined) {
    const out: (readonly [string, string])[] = [];
    for (let i = 0; i + SHOWN_RUN <= hidden.length; i++) {
      const part = hidden.slice(i, i + SHOWN_RUN);
      if (!ORDINARY_TEXT.includes(part)) out.push([part, JSON.stringify(part).slice(1, -1)]);
    }
    parts = out;
    looked.set(hidden, parts);
  }
  return parts;
}

/** Every run of 8 characters of every secret's hidden part (as it is and JSON-escaped), with the secret's name. */
let windows: Map<string, string> | null = null;

/**
 * The secrets of the corpus `output` shows part of (8 characters in a row of the hidden part, as they are
 * or JSON-escaped; runs that ordinary text holds too aside), as `name: part`. One pass over `output`,
 * whatever its length (looking for each run in turn took minutes on a 2 MB report).
 */
export function leakedSecrets(output: string): string[] {
  if (windows === null) {
    windows = new Map();
    for (const s of SECRET_CORPUS) {
      for (const hidden of [s.hidden, JSON.stringify(s.hidden).slice(1, -1)]) {
        for (let i = 0; i + SHOWN_RUN <= hidden.length; i++) {
          const part = hidden.slice(i, i + SHOWN_RUN);
          if (!ORDINARY_TEXT.includes(part) && !windows.has(part)) windows.set(part, s.name);
        }
      }
    }
  }
  const found = new Set<string>();
  for (let i = 0; i + SHOWN_RUN <= output.length; i++) {
    const name = windows.get(output.slice(i, i + SHOWN_RUN));
    if (name !== undefined) found.add(`${name}: ${output.slice(i, i + SHOWN_RUN)}`);
  }
  return [...found];
}
