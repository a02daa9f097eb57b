// Operator sign-in: e-mail, password and the authenticator's code in one form. An operator
// without a TOTP yet gets the enrolment step: the QR code and the secret to type by hand, then
// the first code, which signs them in.
import { Alert, Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { LocalesMenuButton, useLogin, useNotify, useTranslate } from 'react-admin';
import { EnrolmentRequired, type Enrolment } from '../lib/auth-provider';
import type { ErrorBody } from '../lib/http';

type FieldErrors = Partial<Record<'email' | 'password' | 'totp', string>>;

function refusalOf(error: unknown): { message: string; errors: FieldErrors } {
  const refusal = error as { message?: string; body?: Partial<ErrorBody> | null };
  return { message: refusal.message ?? 'ra.auth.sign_in_error', errors: (refusal.body?.errors ?? {}) };
}

const CODE_PATTERN = '[0-9]{6}';

export function LoginPage() {
  const translate = useTranslate();
  const login = useLogin();
  const notify = useNotify();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);

  const fail = (error: unknown) => {
    const { message, errors: fields } = refusalOf(error);
    setErrors(fields);
    notify(message, { type: 'error' });
  };

  const signIn = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      await login(enrolment ? { token: enrolment.token, totp } : { email, password, totp });
    } catch (error) {
      if (error instanceof EnrolmentRequired) {
        setEnrolment(error.enrolment);
        setTotp('');
      } else {
        fail(error);
      }
    } finally {
      setBusy(false);
    }
  };

  const error = (field: keyof FieldErrors) => {
    const key = errors[field];
    return key ? { error: true, helperText: translate(key, { _: key }) } : {};
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', bgcolor: 'grey.100', p: 2 }}>
      <Card sx={{ width: '100%', maxWidth: 420 }}>
        <CardContent>
          <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
            <Typography variant="h5" component="h1">{translate('bo.auth.title')}</Typography>
            <LocalesMenuButton />
          </Box>
          <Box component="form" onSubmit={(event) => void signIn(event)} sx={{ display: 'grid', gap: 2, mt: 2 }} noValidate={false}>
            {enrolment ? (
              <>
                <Alert severity="info">{translate('bo.auth.enrol_intro')}</Alert>
                <Box
                  component="img"
                  src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`}
                  alt={translate('bo.auth.qr_alt')}
                  data-testid="enrol-qr"
                  sx={{ width: 200, height: 200, justifySelf: 'center', bgcolor: 'white' }}
                />
                <TextField
                  label={translate('bo.auth.secret')}
                  value={enrolment.secret}
                  slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': 'enrol-secret' } }}
                />
              </>
            ) : (
              <>
                <TextField
                  label={translate('bo.auth.email')}
                  type="email"
                  autoComplete="username"
                  required
                  autoFocus
                  value={email}
                  onChange={(event) => { setEmail(event.target.value); }}
                  {...error('email')}
                />
                <TextField
                  label={translate('bo.auth.password')}
                  type="password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(event) => { setPassword(event.target.value); }}
                  {...error('password')}
                />
              </>
            )}
            <TextField
              label={translate('bo.auth.code')}
              autoComplete="one-time-code"
              required={enrolment !== null}
              value={totp}
              onChange={(event) => { setTotp(event.target.value.replace(/\D/g, '').slice(0, 6)); }}
              slotProps={{ htmlInput: { inputMode: 'numeric', pattern: CODE_PATTERN, maxLength: 6 } }}
              helperText={errors.totp ? translate(errors.totp, { _: errors.totp }) : translate('bo.auth.code_help')}
              error={Boolean(errors.totp)}
              autoFocus={enrolment !== null}
            />
            <Button type="submit" variant="contained" disabled={busy}>
              {translate(enrolment ? 'bo.auth.enrol' : 'ra.auth.sign_in')}
            </Button>
            {enrolment ? (
              <Button onClick={() => { setEnrolment(null); setTotp(''); }}>{translate('ra.action.back')}</Button>
            ) : null}
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
