// The loyalty programme (`/loyalty`, operators with campaigns.manage) over its admin API
// (`/backoffice/api/admin/loyalty`, lib/loyalty.ts): the programme's switches, the earning rates
// per game type and currency, the levels with their thresholds and rewards (each shown as a table
// and edited in place, checked before sending; the server's field errors are listed above the
// form), the shop's products, the quests and their programmes and the characters (read only: the
// programme's answer has only their summaries, and a `PUT` replaces an item whole, so editing them
// here would clear what the answer leaves out), and a player's account by id with its last
// movements and the grant / take points dialog (pages/player-grants.tsx, a reason required).
//
// The player's page links here with `?player={id}` (the account section then comes first).
// Keyboard: every action is a button or a form (Enter submits); an opened edit takes the focus,
// Escape cancels it and the focus goes back to its Edit button. Tables scroll sideways and list
// rows wrap on a tablet.
import EditIcon from '@mui/icons-material/Edit';
import SearchIcon from '@mui/icons-material/Search';
import {
  Alert,
  Box,
  Button as MuiButton,
  Card,
  CardContent,
  Chip,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { forwardRef, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import {
  ArrayInput,
  BooleanInput,
  Form,
  NumberInput,
  RecordContextProvider,
  ResourceContextProvider,
  SelectInput,
  SimpleFormIterator,
  TextInput,
  Title,
  useDataProvider,
  useLocaleState,
  useNotify,
  useTranslate,
} from 'react-admin';
import { CURRENCIES } from '../lib/campaigns';
import type { BackofficeDataProvider } from '../lib/data-provider';
import { codeMessage, type ErrorBody, type FieldValues } from '../lib/http';
import {
  levelsBody,
  playerId,
  pointsPer100,
  pointsText,
  ratesBody,
  validateLevels,
  validateRates,
  type LoyaltyAccount,
  type LoyaltyConfig,
} from '../lib/loyalty';
import { GrantPointsButton } from './player-grants';

const CONFIG_KEY = ['backoffice', 'loyalty'] as const;

/** A row of a list form wraps its inputs onto more lines on a tablet instead of squeezing them. */
const WRAPPING_ROWS = { '& .RaSimpleFormIterator-form': { flexWrap: 'wrap', flex: 1 } } as const;
const NARROW = { width: 150 } as const;
const WIDE = { minWidth: 260, flexGrow: 1 } as const;
const CURRENCY_CHOICES = CURRENCIES.map((id) => ({ id, name: id }));

function useBackoffice() {
  return useDataProvider<BackofficeDataProvider>();
}

/** A refusal's field errors (`error_data`), or null when it has none. */
function fieldErrorsOf(error: unknown): Record<string, string[]> | null {
  const data = (error as { body?: Partial<ErrorBody> | null } | null)?.body?.error_data;
  return data && Object.keys(data).length > 0 ? data : null;
}

/** The server's field errors, each as "field: reason" in the console's language. */
export function ServerErrors({ errors }: { errors: Record<string, string[]> | null }) {
  const translate = useTranslate();
  if (!errors) return null;
  return (
    <Alert severity="error" sx={{ mb: 2 }} data-testid="loyalty-server-errors">
      <Typography variant="body2" component="p" sx={{ mb: 0.5 }}>
        {translate('bo.loyalty.refused')}
      </Typography>
      <ul style={{ margin: 0, paddingLeft: '1.25rem' }}>
        {Object.entries(errors).flatMap(([field, codes]) =>
          codes.map((code) => (
            <li key={`${field}-${code}`}>
              {translate(`bo.loyalty.field.${field}`, { _: field })}: {translate(codeMessage(code), { _: code })}
            </li>
          )),
        )}
      </ul>
    </Alert>
  );
}

/** A section of the page: a card with a heading and its actions. */
function Section({ title, actions, children, id }: { title: string; actions?: ReactNode; children: ReactNode; id: string }) {
  const translate = useTranslate();
  return (
    <Card component="section" aria-labelledby={`${id}-title`}>
      <CardContent>
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap', mb: 1 }}>
          <Typography variant="h6" component="h2" id={`${id}-title`} sx={{ flexGrow: 1 }}>
            {translate(title)}
          </Typography>
          {actions}
        </Box>
        {children}
      </CardContent>
    </Card>
  );
}

/** A small table that scrolls sideways on narrow screens instead of squeezing its columns. */
function SimpleTable({ head, rows, empty, testId }: { head: string[]; rows: ReactNode[][]; empty: string; testId: string }) {
  const translate = useTranslate();
  if (rows.length === 0) return <Typography color="text.secondary">{translate(empty)}</Typography>;
  return (
    <Box sx={{ overflowX: 'auto' }}>
      <Table size="small" data-testid={testId}>
        <TableHead>
          <TableRow>
            {head.map((key) => (
              <TableCell key={key}>{translate(key)}</TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((cells, index) => (
            <TableRow key={index}>
              {cells.map((cell, column) => (
                <TableCell key={column}>{cell}</TableCell>
              ))}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

function YesNo({ value }: { value: boolean }) {
  const translate = useTranslate();
  return <>{translate(value ? 'ra.boolean.true' : 'ra.boolean.false')}</>;
}

/**
 * A form that `PUT`s its values to `/admin/loyalty/{path}`: client checks first, then the server's
 * refusal (its message in a notification, its field errors above the form).
 */
function LoyaltyForm({
  path,
  defaultValues,
  validate,
  body,
  onDone,
  onCancel,
  children,
  testId,
  label,
}: {
  path: string;
  defaultValues: FieldValues;
  validate?: (values: FieldValues) => Record<string, unknown>;
  body: (values: FieldValues) => Record<string, unknown>;
  onDone: () => Promise<unknown>;
  onCancel?: () => void;
  children: ReactNode;
  testId: string;
  /** Translation key of what the form edits (its name for assistive technologies). */
  label: string;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useBackoffice();
  const [refusal, setRefusal] = useState<Record<string, string[]> | null>(null);
  const [busy, setBusy] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // Keyboard: the form takes the focus when it opens (its Edit button is gone), Tab goes on to its
  // first input; Escape cancels. (The form itself, not its first input: a list's rows are drawn
  // again once its values are set, which would drop a focus given to one of them.)
  useEffect(() => {
    box.current?.focus();
  }, []);
  const submit = async (values: FieldValues) => {
    if (busy) return;
    setBusy(true);
    setRefusal(null);
    try {
      await dataProvider.adminPut(`loyalty/${path}`, body(values));
    } catch (error) {
      const message = (error as { message?: string }).message ?? 'ra.notification.http_error';
      notify(message, { type: 'error', messageArgs: { _: message } });
      setRefusal(fieldErrorsOf(error));
      return;
    } finally {
      setBusy(false);
    }
    notify('bo.loyalty.saved', { type: 'success' });
    await onDone();
  };
  // The list inputs (ArrayInput's iterator) want a resource: the page's own name.
  return (
    <ResourceContextProvider value="loyalty">
    <Form
      onSubmit={submit}
      defaultValues={defaultValues}
      {...(validate ? { validate } : {})}
      mode="onSubmit"
      reValidateMode="onBlur"
      id={testId}
    >
      <Box
        ref={box}
        tabIndex={-1}
        role="group"
        aria-label={translate(label)}
        sx={{ outline: 'none' }}
        onKeyDown={(event) => {
          if (event.key === 'Escape' && onCancel && !event.defaultPrevented) onCancel();
        }}
      >
        <ServerErrors errors={refusal} />
        {children}
        <Box sx={{ display: 'flex', gap: 1, mt: 1 }}>
          <MuiButton type="submit" variant="contained" disabled={busy} data-testid={`${testId}-save`}>
            {translate('ra.action.save')}
          </MuiButton>
          {onCancel ? <MuiButton onClick={onCancel}>{translate('ra.action.cancel')}</MuiButton> : null}
        </Box>
      </Box>
    </Form>
    </ResourceContextProvider>
  );
}

const EditButton = forwardRef<HTMLButtonElement, { onClick: () => void; testId: string; label: string }>(function EditButton(
  { onClick, testId, label },
  ref,
) {
  const translate = useTranslate();
  return (
    <MuiButton ref={ref} startIcon={<EditIcon />} onClick={onClick} data-testid={testId}>
      {translate(label)}
    </MuiButton>
  );
});

/** A section's edit state; closing it gives the focus back to its Edit button. */
function useEditing() {
  const [editing, setEditing] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const was = useRef(false);
  useEffect(() => {
    if (was.current && !editing) button.current?.focus();
    was.current = editing;
  }, [editing]);
  return {
    editing,
    button,
    open: () => {
      setEditing(true);
    },
    close: () => {
      setEditing(false);
    },
  };
}

function SettingsSection({ config, reload }: { config: LoyaltyConfig; reload: () => Promise<unknown> }) {
  const translate = useTranslate();
  const { editing, button, open, close } = useEditing();
  const { settings } = config;
  return (
    <Section
      id="loyalty-settings"
      title="bo.loyalty.programme"
      actions={editing ? null : <EditButton ref={button} onClick={open} testId="loyalty-settings-edit" label="bo.loyalty.edit_settings" />}
    >
      {editing ? (
        <LoyaltyForm
          path="settings"
          label="bo.loyalty.programme"
          testId="loyalty-settings-form"
          defaultValues={{ active: settings.active, levels_drop: settings.levels_drop }}
          body={(values) => ({ active: values.active === true, levels_drop: values.levels_drop === true })}
          onDone={async () => {
            await reload();
            close();
          }}
          onCancel={close}
        >
          <BooleanInput source="active" label="bo.loyalty.active" helperText="bo.loyalty.active_help" />
          <BooleanInput source="levels_drop" label="bo.loyalty.levels_drop" helperText="bo.loyalty.levels_drop_help" />
        </LoyaltyForm>
      ) : (
        <Box sx={{ display: 'flex', gap: 1, flexWrap: 'wrap' }}>
          <Chip
            data-testid="loyalty-active"
            color={settings.active ? 'success' : 'default'}
            label={translate(settings.active ? 'bo.loyalty.programme_on' : 'bo.loyalty.programme_off')}
          />
          <Chip label={translate(settings.levels_drop ? 'bo.loyalty.levels_drop_on' : 'bo.loyalty.levels_drop_off')} />
        </Box>
      )}
    </Section>
  );
}

function RatesSection({ config, reload }: { config: LoyaltyConfig; reload: () => Promise<unknown> }) {
  const translate = useTranslate();
  const { editing, button, open, close } = useEditing();
  return (
    <Section
      id="loyalty-rates"
      title="bo.loyalty.rates"
      actions={editing ? null : <EditButton ref={button} onClick={open} testId="loyalty-rates-edit" label="bo.loyalty.edit_rates" />}
    >
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('bo.loyalty.rates_help')}
      </Typography>
      {editing ? (
        <LoyaltyForm
          path="rates"
          label="bo.loyalty.rates"
          testId="loyalty-rates-form"
          defaultValues={{ items: config.rates.map((rate) => ({ ...rate })) }}
          validate={(values) => validateRates(values)}
          body={(values) => ratesBody(values)}
          onDone={async () => {
            await reload();
            close();
          }}
          onCancel={close}
        >
          <ArrayInput source="items" label="bo.loyalty.rates">
            <SimpleFormIterator inline disableReordering sx={WRAPPING_ROWS}>
              <TextInput source="game_type" label="bo.loyalty.field.game_type" fullWidth={false} helperText="bo.loyalty.game_type_help" />
              <SelectInput source="currency" label="bo.loyalty.field.currency" fullWidth={false} choices={CURRENCY_CHOICES} translateChoice={false} />
              <NumberInput source="milli_per_unit" label="bo.loyalty.field.milli_per_unit" fullWidth={false} step={1} min={0} />
            </SimpleFormIterator>
          </ArrayInput>
        </LoyaltyForm>
      ) : (
        <SimpleTable
          testId="loyalty-rates"
          empty="bo.loyalty.no_rates"
          head={['bo.loyalty.field.game_type', 'bo.loyalty.field.currency', 'bo.loyalty.field.milli_per_unit', 'bo.loyalty.per_100']}
          rows={config.rates.map((rate) => [
            rate.game_type === '*' ? translate('bo.loyalty.any_game') : rate.game_type,
            rate.currency,
            rate.milli_per_unit,
            pointsPer100(rate.milli_per_unit),
          ])}
        />
      )}
    </Section>
  );
}

function LevelsSection({ config, reload }: { config: LoyaltyConfig; reload: () => Promise<unknown> }) {
  const { editing, button, open, close } = useEditing();
  return (
    <Section
      id="loyalty-levels"
      title="bo.loyalty.levels"
      actions={editing ? null : <EditButton ref={button} onClick={open} testId="loyalty-levels-edit" label="bo.loyalty.edit_levels" />}
    >
      {editing ? (
        <LoyaltyForm
          path="levels"
          label="bo.loyalty.levels"
          testId="loyalty-levels-form"
          defaultValues={{
            items: config.levels.map((level) => ({ ...level, image: level.image ?? '', campaign_id: level.campaign_id })),
          }}
          validate={(values) => validateLevels(values)}
          body={(values) => levelsBody(values)}
          onDone={async () => {
            await reload();
            close();
          }}
          onCancel={close}
        >
          <ArrayInput source="items" label="bo.loyalty.levels" helperText="bo.loyalty.levels_help">
            <SimpleFormIterator inline disableReordering sx={WRAPPING_ROWS}>
              <NumberInput source="level" label="bo.loyalty.field.level" fullWidth={false} sx={NARROW} step={1} min={1} max={100} />
              <NumberInput source="min_points" label="bo.loyalty.field.min_points" fullWidth={false} sx={NARROW} step={1} min={0} />
              <TextInput source="title_en" label="bo.loyalty.field.title_en" fullWidth={false} sx={NARROW} />
              <TextInput source="title_fr" label="bo.loyalty.field.title_fr" fullWidth={false} sx={NARROW} />
              <TextInput source="description_en" label="bo.loyalty.field.description_en" fullWidth={false} sx={WIDE} multiline />
              <TextInput source="description_fr" label="bo.loyalty.field.description_fr" fullWidth={false} sx={WIDE} multiline />
              <TextInput source="image" label="bo.loyalty.field.image" fullWidth={false} sx={WIDE} helperText="bo.loyalty.image_help" />
              <NumberInput source="campaign_id" label="bo.loyalty.field.campaign_id" fullWidth={false} sx={NARROW} helperText="bo.loyalty.campaign_help" step={1} min={1} />
            </SimpleFormIterator>
          </ArrayInput>
        </LoyaltyForm>
      ) : (
        <SimpleTable
          testId="loyalty-levels"
          empty="bo.loyalty.no_levels"
          head={[
            'bo.loyalty.field.level',
            'bo.loyalty.field.min_points',
            'bo.loyalty.field.title_en',
            'bo.loyalty.field.title_fr',
            'bo.loyalty.field.description_en',
            'bo.loyalty.field.campaign_id',
          ]}
          rows={config.levels.map((level) => [
            level.level,
            level.min_points,
            level.title_en,
            level.title_fr,
            level.description_en,
            level.campaign_id ?? '—',
          ])}
        />
      )}
    </Section>
  );
}

function CatalogueSection({ config }: { config: LoyaltyConfig }) {
  const translate = useTranslate();
  const programme = (id: number) => config.programs.find((p) => p.id === id)?.sysname ?? String(id);
  const yes = (value: boolean) => <YesNo value={value} />;
  return (
    <Section id="loyalty-catalogue" title="bo.loyalty.catalogue">
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {translate('bo.loyalty.catalogue_help')}
      </Typography>
      <Typography variant="subtitle1" component="h3">{translate('bo.loyalty.products')}</Typography>
      <SimpleTable
        testId="loyalty-products"
        empty="bo.loyalty.none"
        head={[
          'bo.loyalty.field.sysname',
          'bo.loyalty.field.title_en',
          'bo.loyalty.field.price',
          'bo.loyalty.field.kind',
          'bo.loyalty.field.reward',
          'bo.loyalty.field.min_level',
          'bo.loyalty.field.stock',
          'bo.loyalty.field.active',
        ]}
        rows={config.products.map((p) => [
          p.sysname,
          p.title_en,
          p.price,
          translate(`bo.loyalty.product_kind.${p.kind}`, { _: p.kind }),
          p.kind === 'cashback_boost'
            ? translate('bo.loyalty.boost', { percent: ((p.boost_bps ?? 0) / 100).toString() })
            : translate('bo.loyalty.campaign_ref', { id: p.campaign_id ?? '—' }),
          p.min_level,
          p.stock ?? translate('bo.loyalty.unlimited'),
          yes(p.active),
        ])}
      />
      <Typography variant="subtitle1" component="h3" sx={{ mt: 2 }}>{translate('bo.loyalty.quests')}</Typography>
      <SimpleTable
        testId="loyalty-quests"
        empty="bo.loyalty.none"
        head={[
          'bo.loyalty.field.sysname',
          'bo.loyalty.field.program',
          'bo.loyalty.field.goal',
          'bo.loyalty.field.target',
          'bo.loyalty.field.game_type',
          'bo.loyalty.field.reward_points',
          'bo.loyalty.field.active',
        ]}
        rows={config.quests.map((q) => [
          q.sysname,
          programme(q.program_id),
          translate(`bo.loyalty.goal.${q.goal}`, { _: q.goal }),
          q.target,
          q.game_type ?? '—',
          q.reward_points,
          yes(q.active),
        ])}
      />
      <Typography variant="subtitle1" component="h3" sx={{ mt: 2 }}>{translate('bo.loyalty.programs')}</Typography>
      <SimpleTable
        testId="loyalty-programs"
        empty="bo.loyalty.none"
        head={['bo.loyalty.field.sysname', 'bo.loyalty.field.title_en', 'bo.loyalty.field.active']}
        rows={config.programs.map((p) => [p.sysname, p.title_en, yes(p.active)])}
      />
      <Typography variant="subtitle1" component="h3" sx={{ mt: 2 }}>{translate('bo.loyalty.characters')}</Typography>
      <SimpleTable
        testId="loyalty-characters"
        empty="bo.loyalty.none"
        head={['bo.loyalty.field.sysname', 'bo.loyalty.field.title_en', 'bo.loyalty.field.min_level', 'bo.loyalty.field.active']}
        rows={config.characters.map((c) => [c.sysname, c.title_en, c.min_level, yes(c.active)])}
      />
    </Section>
  );
}

/** Is this refusal "the player has no loyalty account" (`user_id` NOT_FOUND)? */
function noAccount(error: unknown): boolean {
  return fieldErrorsOf(error)?.user_id?.includes('NOT_FOUND') ?? false;
}

function AccountSection({ config }: { config: LoyaltyConfig | undefined }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useBackoffice();
  const [params, setParams] = useSearchParams();
  const shown = playerId(params.get('player') ?? '');
  const [text, setText] = useState(shown === null ? '' : String(shown));
  const [invalid, setInvalid] = useState(false);
  const account = useQuery({
    queryKey: ['backoffice', 'loyalty-account', shown],
    queryFn: async () => (await dataProvider.adminGet(`loyalty/accounts/${String(shown)}`)) as unknown as LoyaltyAccount,
    enabled: shown !== null,
    retry: false,
  });
  const look = (event: FormEvent) => {
    event.preventDefault();
    const id = playerId(text);
    setInvalid(id === null);
    if (id !== null) setParams({ player: String(id) });
  };
  const data = account.data;
  const level = data ? config?.levels.find((l) => l.level === data.level) : undefined;
  const character = data?.character_id != null ? config?.characters.find((c) => c.id === data.character_id) : undefined;
  return (
    <Section id="loyalty-account" title="bo.loyalty.account">
      <Box component="form" onSubmit={look} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', flexWrap: 'wrap', mb: 2 }}>
        <MuiTextField
          size="small"
          label={translate('bo.fields.user_id')}
          value={text}
          onChange={(event) => { setText(event.target.value); }}
          error={invalid}
          helperText={invalid ? translate('bo.loyalty.player_invalid') : ' '}
          slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'loyalty-player-id' } }}
        />
        <MuiButton type="submit" variant="outlined" startIcon={<SearchIcon />} data-testid="loyalty-player-show">
          {translate('bo.loyalty.show_account')}
        </MuiButton>
      </Box>
      {shown !== null ? (
        <>
          {account.isPending ? <CircularProgress size={24} aria-label={translate('ra.page.loading')} /> : null}
          {account.error ? (
            <Alert severity={noAccount(account.error) ? 'info' : 'error'} sx={{ mb: 2 }}>
              {noAccount(account.error) ? translate('bo.loyalty.no_account', { id: shown }) : account.error.message}
            </Alert>
          ) : null}
          {data ? (
            <>
              <Box
                component="dl"
                data-testid="loyalty-account-summary"
                sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr 1fr', md: 'repeat(6, auto)' }, gap: 1, m: 0, mb: 2, '& dd': { m: 0, fontWeight: 600 } }}
              >
                <Box><dt>{translate('bo.loyalty.points')}</dt><dd>{pointsText(data.points_milli)}</dd></Box>
                <Box><dt>{translate('bo.loyalty.lifetime')}</dt><dd>{pointsText(data.lifetime_milli)}</dd></Box>
                <Box><dt>{translate('bo.loyalty.earned_by_bets')}</dt><dd>{pointsText(data.earned_by_bets_milli)}</dd></Box>
                <Box>
                  <dt>{translate('bo.loyalty.field.level')}</dt>
                  <dd>{level ? `${String(data.level)} · ${locale === 'fr' ? level.title_fr : level.title_en}` : data.level}</dd>
                </Box>
                <Box><dt>{translate('bo.loyalty.character')}</dt><dd>{character?.sysname ?? data.character_id ?? '—'}</dd></Box>
                <Box><dt>{translate('bo.loyalty.field.active')}</dt><dd><YesNo value={data.active} /></dd></Box>
              </Box>
              <Typography variant="subtitle1" component="h3">{translate('bo.loyalty.history')}</Typography>
              <SimpleTable
                testId="loyalty-entries"
                empty="bo.loyalty.no_entries"
                head={['bo.fields.at', 'bo.fields.kind', 'bo.loyalty.points', 'bo.loyalty.lifetime', 'bo.fields.reason']}
                rows={data.entries.map((entry) => [
                  new Date(entry.created_at * 1000).toLocaleString(locale),
                  translate(`bo.loyalty.entry_kind.${entry.kind}`, { _: entry.kind }),
                  pointsText(entry.points_milli),
                  pointsText(entry.lifetime_milli),
                  entry.reason ?? '—',
                ])}
              />
            </>
          ) : null}
          {/* A player without an account yet gets one with their first points. */}
          {data || noAccount(account.error) ? (
            <Box sx={{ mt: 2 }}>
              <RecordContextProvider value={{ id: shown }}>
                <GrantPointsButton />
              </RecordContextProvider>
            </Box>
          ) : null}
        </>
      ) : null}
    </Section>
  );
}

export function LoyaltyPage() {
  const translate = useTranslate();
  const dataProvider = useBackoffice();
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: CONFIG_KEY,
    queryFn: async () => (await dataProvider.adminGet('loyalty')) as unknown as LoyaltyConfig,
  });
  const reload = () => queryClient.invalidateQueries({ queryKey: CONFIG_KEY });
  const config = query.data;
  // Opened on a player (the link of the player's page): their account comes first. Decided once,
  // so a later look-up does not move the section under the operator's hands.
  const [params] = useSearchParams();
  const [accountFirst] = useState(() => params.has('player'));
  const account = <AccountSection config={config} />;
  return (
    <Box sx={{ mt: 1, display: 'grid', gap: 2, minWidth: 0 }}>
      <Title title="bo.loyalty.title" />
      {accountFirst ? account : null}
      {query.isPending ? <CircularProgress aria-label={translate('ra.page.loading')} /> : null}
      {query.error ? <Alert severity="error">{query.error.message}</Alert> : null}
      {config ? (
        <>
          <SettingsSection config={config} reload={reload} />
          <RatesSection config={config} reload={reload} />
          <LevelsSection config={config} reload={reload} />
          <CatalogueSection config={config} />
        </>
      ) : null}
      {accountFirst ? null : account}
    </Box>
  );
}
