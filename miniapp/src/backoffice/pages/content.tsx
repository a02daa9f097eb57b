// Content: the editor of the content service (the Strapi v4-compatible `/cms/api`), over the
// console's own `/backoffice/api/content/...` (permission `content.manage`, every change audited
// with its reason). Pick a content type → its entries in one locale (drafts included, search,
// status filter, pages) → an entry's form, generated from the type's fields. The form edits one
// locale variant; switching to a locale the entry lacks starts the translation from the default
// locale's text (saved as a draft). Publish, unpublish and delete ask for a reason; the preview
// link opens the page on the site in the variant's locale.
import AddIcon from '@mui/icons-material/Add';
import DeleteIcon from '@mui/icons-material/Delete';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import PublishIcon from '@mui/icons-material/Publish';
import UnpublishedIcon from '@mui/icons-material/Unpublished';
import {
  Alert,
  Box,
  Breadcrumbs,
  Button,
  Card,
  CardActionArea,
  CardContent,
  Chip,
  CircularProgress,
  FormControlLabel,
  Link,
  MenuItem,
  Switch,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  ToggleButton,
  ToggleButtonGroup,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState, type FormEvent } from 'react';
import { Link as RouterLink, Route, Routes, useNavigate, useParams, useSearchParams } from 'react-router';
import { BooleanInput, Title, useLocaleState, useNotify, useTranslate } from 'react-admin';
import { ActionDialogButton } from '../components/action-dialog';
import {
  CONTENT_LOCALES,
  contentApi,
  formData,
  toInput,
  type ContentApi,
  type ContentEntry,
  type ContentField,
  type ContentType,
} from '../lib/content';
import type { ErrorBody } from '../lib/http';

const PER_PAGE = 25;

function useContentApi(): ContentApi {
  const [lang] = useLocaleState();
  return useMemo(() => contentApi(() => lang), [lang]);
}

function useTypes(api: ContentApi) {
  return useQuery({ queryKey: ['backoffice', 'content', 'types'], queryFn: () => api.types() });
}

/** A type's name in the console's language (the API id when the console has no word for it). */
function useTypeName() {
  const translate = useTranslate();
  return (t: ContentType) => translate(`bo.content.types.${t.singular}`, { _: t.api_id });
}

export function ContentPage() {
  return (
    <Box sx={{ mt: 1 }}>
      <Title title="bo.content.title" />
      <Routes>
        <Route index element={<TypeIndex />} />
        <Route path=":apiId" element={<EntryList />} />
        <Route path=":apiId/create" element={<EntryEditor />} />
        <Route path=":apiId/:id" element={<EntryEditor />} />
      </Routes>
    </Box>
  );
}

function Loading({ error, pending }: { error: Error | null; pending: boolean }) {
  const translate = useTranslate();
  if (error) return <Alert severity="error">{error.message}</Alert>;
  return pending ? <CircularProgress aria-label={translate('ra.page.loading')} /> : null;
}

function TypeIndex() {
  const api = useContentApi();
  const translate = useTranslate();
  const typeName = useTypeName();
  const types = useTypes(api);
  return (
    <Box>
      <Typography component="h1" variant="h5" gutterBottom>{translate('bo.content.pick_type')}</Typography>
      <Loading error={types.error} pending={types.isPending} />
      <Box sx={{ display: 'grid', gap: 1, gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))' }}>
        {(types.data ?? []).map((t) => (
          <Card key={t.api_id}>
            <CardActionArea component={RouterLink} to={t.api_id} data-testid={`content-type-${t.api_id}`}>
              <CardContent>
                <Typography variant="subtitle1" component="h2">{typeName(t)}</Typography>
                <Typography variant="body2" color="text.secondary">
                  {translate(t.kind === 'single' ? 'bo.content.single' : 'bo.content.collection')} · {t.api_id}
                </Typography>
              </CardContent>
            </CardActionArea>
          </Card>
        ))}
      </Box>
    </Box>
  );
}

function Crumbs({ type, last }: { type?: ContentType | undefined; last?: string | undefined }) {
  const translate = useTranslate();
  const typeName = useTypeName();
  return (
    <Breadcrumbs sx={{ mb: 1 }}>
      <Link component={RouterLink} to="/content">{translate('bo.content.title')}</Link>
      {type ? (
        last ? <Link component={RouterLink} to={`/content/${type.api_id}`}>{typeName(type)}</Link> : <span>{typeName(type)}</span>
      ) : null}
      {last ? <span>{last}</span> : null}
    </Breadcrumbs>
  );
}

function LocaleSwitch({ value, onChange }: { value: string; onChange: (locale: string) => void }) {
  const translate = useTranslate();
  return (
    <ToggleButtonGroup
      size="small"
      exclusive
      value={value}
      aria-label={translate('bo.content.locale')}
      onChange={(_, next: string | null) => {
        if (next) onChange(next);
      }}
    >
      {CONTENT_LOCALES.map((code) => (
        <ToggleButton key={code} value={code} data-testid={`content-locale-${code}`}>
          {translate(`bo.content.locales.${code}`)}
        </ToggleButton>
      ))}
    </ToggleButtonGroup>
  );
}

function StatusChip({ exists, published }: { exists: boolean; published: boolean }) {
  const translate = useTranslate();
  if (!exists) return <Chip size="small" variant="outlined" label={translate('bo.content.missing')} />;
  return (
    <Chip
      size="small"
      color={published ? 'success' : 'default'}
      label={translate(published ? 'bo.content.published' : 'bo.content.draft')}
    />
  );
}

function EntryList() {
  const { apiId = '' } = useParams();
  const api = useContentApi();
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const locale = params.get('locale') ?? 'en';
  const q = params.get('q') ?? '';
  const status = (params.get('status') ?? '') as '' | 'draft' | 'published';
  const page = Math.max(1, Number(params.get('page') ?? '1') || 1);
  const [search, setSearch] = useState(q);
  const types = useTypes(api);
  const type = types.data?.find((t) => t.api_id === apiId);
  const entries = useQuery({
    queryKey: ['backoffice', 'content', apiId, locale, q, status, page],
    queryFn: () => api.list(apiId, { locale, q, status, page, perPage: PER_PAGE }),
  });
  const set = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next);
  };
  return (
    <Box>
      <Crumbs type={type} />
      <Box
        component="form"
        role="search"
        sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', mb: 1 }}
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          set({ q: search, page: '' });
        }}
      >
        {type?.localized === false ? null : <LocaleSwitch value={locale} onChange={(next) => { set({ locale: next, page: '' }); }} />}
        <TextField
          size="small"
          label={translate('bo.content.search')}
          value={search}
          onChange={(event) => { setSearch(event.target.value); }}
          onBlur={() => { set({ q: search, page: '' }); }}
        />
        <TextField
          size="small"
          select
          label={translate('bo.content.status')}
          value={status}
          onChange={(event) => { set({ status: event.target.value, page: '' }); }}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="">{translate('bo.content.all')}</MenuItem>
          <MenuItem value="published">{translate('bo.content.published')}</MenuItem>
          <MenuItem value="draft">{translate('bo.content.draft')}</MenuItem>
        </TextField>
        {type?.kind === 'collection' ? (
          <Button
            component={RouterLink}
            to={`/content/${apiId}/create?locale=${locale}`}
            startIcon={<AddIcon />}
            variant="contained"
            data-testid="content-create"
          >
            {translate('bo.content.create')}
          </Button>
        ) : null}
      </Box>
      <Loading error={entries.error ?? types.error} pending={entries.isPending} />
      {entries.data ? (
        <Card>
          <Box sx={{ overflowX: 'auto' }}>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{translate('bo.content.id')}</TableCell>
                  <TableCell>{translate('bo.content.entry')}</TableCell>
                  <TableCell>{translate('bo.content.status')}</TableCell>
                  <TableCell>{translate('bo.content.translations')}</TableCell>
                  <TableCell>{translate('bo.content.updated')}</TableCell>
                  <TableCell>{translate('bo.content.preview')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {entries.data.rows.length === 0 ? (
                  <TableRow>
                    <TableCell colSpan={6}>{translate('bo.content.empty')}</TableCell>
                  </TableRow>
                ) : null}
                {entries.data.rows.map((row) => (
                  <TableRow key={row.id} hover>
                    <TableCell>{row.id}</TableCell>
                    <TableCell>
                      <Link component={RouterLink} to={`/content/${apiId}/${String(row.id)}?locale=${locale}`} data-testid={`content-edit-${String(row.id)}`}>
                        {row.label}
                      </Link>
                    </TableCell>
                    <TableCell>
                      <StatusChip exists={row.translated} published={row.published} />
                    </TableCell>
                    <TableCell>{row.locales.filter(Boolean).join(', ') || '—'}</TableCell>
                    <TableCell>{row.updated_at ? new Date(row.updated_at).toLocaleString(locale) : '—'}</TableCell>
                    <TableCell>
                      <Link href={row.preview_url} target="_blank" rel="noopener" aria-label={translate('bo.content.preview')}>
                        <OpenInNewIcon fontSize="small" />
                      </Link>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </Box>
          <TablePagination
            component="div"
            count={entries.data.total}
            page={page - 1}
            rowsPerPage={PER_PAGE}
            rowsPerPageOptions={[PER_PAGE]}
            onPageChange={(_, next) => { set({ page: String(next + 1) }); }}
          />
        </Card>
      ) : null}
    </Box>
  );
}

/** The input of one field. */
function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: ContentField;
  value: string | boolean;
  error: string | undefined;
  onChange: (value: string | boolean) => void;
}) {
  const translate = useTranslate();
  const label = `${field.name}${field.required ? ' *' : ''}`;
  const helper = error ? translate(error, { _: error }) : translate(`bo.content.kinds.${field.kind}`);
  const common = {
    id: `content-field-${field.name}`,
    label,
    error: Boolean(error),
    helperText: helper,
    fullWidth: true,
    value: typeof value === 'string' ? value : '',
    onChange: (event: { target: { value: string } }) => { onChange(event.target.value); },
  };
  switch (field.kind) {
    case 'boolean':
      return (
        <FormControlLabel
          control={<Switch checked={value === true} onChange={(event) => { onChange(event.target.checked); }} />}
          label={label}
        />
      );
    case 'richtext':
      return <TextField {...common} multiline minRows={4} />;
    case 'component':
    case 'json':
      return <TextField {...common} multiline minRows={3} slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }} />;
    case 'integer':
    case 'number':
      return <TextField {...common} type="number" slotProps={{ htmlInput: { step: field.kind === 'integer' ? 1 : 'any' } }} />;
    case 'date':
      return <TextField {...common} type="date" slotProps={{ inputLabel: { shrink: true } }} />;
    case 'enumeration':
      return (
        <TextField {...common} select>
          <MenuItem value="">—</MenuItem>
          {(field.options ?? []).map((option) => (
            <MenuItem key={option} value={option}>{option}</MenuItem>
          ))}
        </TextField>
      );
    default:
      return <TextField {...common} />;
  }
}

function inputsOf(type: ContentType, data: Record<string, unknown>): Record<string, string | boolean> {
  return Object.fromEntries(type.fields.map((field) => [field.name, toInput(field, data[field.name])]));
}

function EntryEditor() {
  const { apiId = '', id: idText } = useParams();
  const creating = idText === undefined;
  const id = Number(idText);
  const api = useContentApi();
  const translate = useTranslate();
  const [params, setParams] = useSearchParams();
  const locale = params.get('locale') ?? 'en';
  const types = useTypes(api);
  const type = types.data?.find((t) => t.api_id === apiId);
  const entry = useQuery({
    queryKey: ['backoffice', 'content', apiId, 'entry', id, locale],
    queryFn: () => api.get(apiId, id, locale),
    enabled: !creating,
  });
  if (!type || (!creating && !entry.data)) {
    return (
      <Box>
        <Crumbs type={type} last={creating ? translate('bo.content.create') : `#${idText}`} />
        <Loading error={types.error ?? entry.error} pending={types.isPending || (!creating && entry.isPending)} />
      </Box>
    );
  }
  return (
    <EntryForm
      key={`${String(entry.dataUpdatedAt)}-${locale}`}
      api={api}
      type={type}
      entry={creating ? undefined : entry.data}
      locale={locale}
      onLocale={(next) => { setParams({ locale: next }); }}
      reload={async () => {
        await entry.refetch();
      }}
    />
  );
}

function EntryForm({
  api,
  type,
  entry,
  locale,
  onLocale,
  reload,
}: {
  api: ContentApi;
  type: ContentType;
  entry: ContentEntry | undefined;
  locale: string;
  onLocale: (locale: string) => void;
  reload: () => Promise<void>;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const navigate = useNavigate();
  const stored = entry?.data ?? {};
  const [inputs, setInputs] = useState(() => inputsOf(type, stored));
  const [reason, setReason] = useState('');
  const [publish, setPublish] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [issues, setIssues] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const translating = entry !== undefined && !entry.exists;
  const sendLocale = type.localized ? locale : 'en';

  const refused = (error: unknown) => {
    const refusal = error as { message?: string; body?: Partial<ErrorBody> | null };
    notify(refusal.message ?? 'ra.notification.http_error', { type: 'error' });
    const data = refusal.body?.error_data ?? {};
    setIssues(data.issues ?? []);
    setErrors(refusal.body?.errors ?? {});
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const { data, errors: local } = formData(type.fields, inputs, stored, entry === undefined || translating);
    const next = { ...local };
    if (!reason.trim()) next.reason = 'bo.codes.REQUIRED';
    setErrors(next);
    setIssues([]);
    if (Object.keys(next).length > 0) return;
    setBusy(true);
    try {
      if (entry === undefined) {
        const created = await api.create(type.api_id, { locale: sendLocale, data, publish, reason: reason.trim() });
        notify('bo.content.created', { type: 'success' });
        void navigate(`/content/${type.api_id}/${String(created.id)}?locale=${locale}`);
      } else {
        await api.update(type.api_id, entry.id, { locale: sendLocale, data, reason: reason.trim() });
        notify(translating ? 'bo.content.translated' : 'bo.content.saved', { type: 'success' });
        await reload();
      }
    } catch (error) {
      refused(error);
    } finally {
      setBusy(false);
    }
  };

  const title = entry === undefined ? translate('bo.content.create') : `#${String(entry.id)}`;
  return (
    <Box>
      <Crumbs type={type} last={title} />
      <Card>
        <CardContent>
          <Box sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}>
            {type.localized ? <LocaleSwitch value={locale} onChange={onLocale} /> : null}
            {entry ? <StatusChip exists={entry.exists} published={entry.published} /> : null}
            {entry ? (
              <Link href={entry.preview_url} target="_blank" rel="noopener" data-testid="content-preview">
                {translate('bo.content.preview')} <OpenInNewIcon fontSize="inherit" />
              </Link>
            ) : null}
            {entry?.exists ? (
              <>
                <ActionDialogButton
                  label={entry.published ? 'bo.content.unpublish' : 'bo.content.publish'}
                  icon={entry.published ? <UnpublishedIcon /> : <PublishIcon />}
                  testId="content-publication"
                  success={entry.published ? 'bo.content.unpublished' : 'bo.content.published_now'}
                  onSubmit={async (values) => {
                    await api.publication(type.api_id, entry.id, !entry.published, { locale: sendLocale, reason: String(values.reason) });
                    await reload();
                  }}
                />
                <ActionDialogButton
                  label="bo.content.delete"
                  title="bo.content.delete_confirm"
                  icon={<DeleteIcon />}
                  color="error"
                  testId="content-delete"
                  success="bo.content.deleted"
                  onSubmit={async (values) => {
                    const every = !type.localized || values.every_locale === true || entry.locales.length <= 1;
                    await api.remove(type.api_id, entry.id, { ...(every ? {} : { locale: sendLocale }), reason: String(values.reason) });
                    if (every) void navigate(`/content/${type.api_id}?locale=${locale}`);
                    else onLocale(entry.locales.find((code) => code !== locale) ?? 'en');
                  }}
                >
                  {type.localized && entry.locales.length > 1 ? (
                    <BooleanInput source="every_locale" label="bo.content.every_locale" defaultValue={false} />
                  ) : null}
                </ActionDialogButton>
              </>
            ) : null}
          </Box>
          {translating ? (
            <Alert severity="info" sx={{ mb: 2 }} data-testid="content-translating">
              {translate('bo.content.translating', { locale: translate(`bo.content.locales.${locale}`) })}
            </Alert>
          ) : null}
          {issues.map((issue) => (
            <Alert key={issue} severity="error" sx={{ mb: 1 }}>{issue}</Alert>
          ))}
          <Box
            component="form"
            onSubmit={(event: FormEvent) => {
              void save(event);
            }}
            noValidate sx={{ display: 'grid', gap: 2 }}>
            {type.fields.map((field) => (
              <FieldInput
                key={field.name}
                field={field}
                value={inputs[field.name] ?? ''}
                error={errors[field.name]}
                onChange={(value) => { setInputs((current) => ({ ...current, [field.name]: value })); }}
              />
            ))}
            {entry === undefined ? (
              <FormControlLabel
                control={<Switch checked={publish} onChange={(event) => { setPublish(event.target.checked); }} />}
                label={translate('bo.content.publish_now')}
              />
            ) : null}
            <TextField
              id="content-reason"
              label={`${translate('bo.fields.reason')} *`}
              value={reason}
              onChange={(event) => { setReason(event.target.value); }}
              error={Boolean(errors.reason)}
              helperText={errors.reason ? translate(errors.reason) : translate('bo.content.reason_help')}
              multiline
              minRows={2}
              fullWidth
            />
            <Box>
              <Button type="submit" variant="contained" disabled={busy} data-testid="content-save">
                {translate(translating ? 'bo.content.save_translation' : 'ra.action.save')}
              </Button>
            </Box>
          </Box>
        </CardContent>
      </Card>
    </Box>
  );
}
