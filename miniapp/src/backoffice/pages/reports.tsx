// Reports: gross gaming revenue per day, deposits against withdrawals, active and new players,
// bonus cost — as charts and as the table they are drawn from — and GGR by game and by
// provider; the days export as CSV. Dates are UTC days.
import DownloadIcon from '@mui/icons-material/Download';
import {
  Alert,
  Box,
  Button as MuiButton,
  Card,
  CardContent,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField as MuiTextField,
  Typography,
} from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useDataProvider, useLocaleState, useTranslate } from 'react-admin';
import { Chart } from '../components/charts';
import { reportCsvUrl, type BackofficeDataProvider, type ReportParams, type ReportSummary } from '../lib/data-provider';
import { isoDay } from '../lib/dates';
import { formatMoney, minorToDecimal } from '../lib/money';

const DAY_MS = 86_400_000;

function defaultParams(): ReportParams {
  const today = new Date();
  return { from: isoDay(new Date(today.getTime() - 29 * DAY_MS)), to: isoDay(today), currency: 'EUR' };
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card component="section" sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

function Charts({ report }: { report: ReportSummary }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const money = (minor: number) => formatMoney(Math.round(minor), report.currency, locale);
  const count = (value: number) => new Intl.NumberFormat(locale).format(Math.round(value));
  const labels = report.days.map((day) => day.date.slice(5));
  const pick = (key: keyof ReportSummary['days'][number]) => report.days.map((day) => Number(day[key]));
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, gap: 2 }}>
      <Section title={translate('bo.reports.ggr_per_day')}>
        <Chart kind="line" testId="chart-ggr" title={translate('bo.reports.ggr_per_day')} labels={labels} format={money}
          series={[{ label: translate('bo.reports.ggr'), color: '#2e7d32', values: pick('ggr') }]} />
      </Section>
      <Section title={translate('bo.reports.deposits_withdrawals')}>
        <Chart kind="bar" title={translate('bo.reports.deposits_withdrawals')} labels={labels} format={money}
          series={[
            { label: translate('bo.reports.deposits'), color: '#1565c0', values: pick('deposits') },
            { label: translate('bo.reports.withdrawals'), color: '#ef6c00', values: pick('withdrawals') },
          ]} />
      </Section>
      <Section title={translate('bo.reports.players')}>
        <Chart kind="line" title={translate('bo.reports.players')} labels={labels} format={count}
          series={[
            { label: translate('bo.reports.active_players'), color: '#6a1b9a', values: pick('active_players') },
            { label: translate('bo.reports.new_players'), color: '#00838f', values: pick('new_players') },
          ]} />
      </Section>
      <Section title={translate('bo.reports.bonus_cost')}>
        <Chart kind="bar" title={translate('bo.reports.bonus_cost')} labels={labels} format={money}
          series={[{ label: translate('bo.reports.bonus_cost'), color: '#c62828', values: pick('bonus_cost') }]} />
      </Section>
    </Box>
  );
}

function GroupTable({ title, rows, name }: { title: string; rows: { key: string; bets: string; wins: string; ggr: string }[]; name: string }) {
  const translate = useTranslate();
  return (
    <Section title={title}>
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{translate(name)}</TableCell>
              <TableCell align="right">{translate('bo.reports.bets')}</TableCell>
              <TableCell align="right">{translate('bo.reports.wins')}</TableCell>
              <TableCell align="right">{translate('bo.reports.ggr')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((row) => (
              <TableRow key={row.key}>
                <TableCell>{row.key}</TableCell>
                <TableCell align="right">{row.bets}</TableCell>
                <TableCell align="right">{row.wins}</TableCell>
                <TableCell align="right">{row.ggr}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Section>
  );
}

export function ReportsPage() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<BackofficeDataProvider>();
  const [draft, setDraft] = useState(defaultParams);
  const [params, setParams] = useState(defaultParams);
  const query = useQuery({
    queryKey: ['backoffice', 'reports', params],
    queryFn: () => dataProvider.reportSummary(params),
  });
  const report = query.data;
  const major = (minor: number) => (report ? minorToDecimal(minor, report.currency) : String(minor));

  return (
    <Box sx={{ mt: 1 }}>
      <Title title="bo.reports.title" />
      <Box
        component="form"
        sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', alignItems: 'center', mb: 2 }}
        onSubmit={(event) => {
          event.preventDefault();
          setParams(draft);
        }}
      >
        <MuiTextField type="date" label={translate('bo.fields.from')} value={draft.from} size="small" sx={{ width: 190 }} fullWidth={false}
          onChange={(event) => { setDraft({ ...draft, from: event.target.value }); }} slotProps={{ inputLabel: { shrink: true } }} />
        <MuiTextField type="date" label={translate('bo.fields.to')} value={draft.to} size="small" sx={{ width: 190 }} fullWidth={false}
          onChange={(event) => { setDraft({ ...draft, to: event.target.value }); }} slotProps={{ inputLabel: { shrink: true } }} />
        <MuiTextField label={translate('bo.fields.currency')} value={draft.currency} size="small" sx={{ width: 120 }} fullWidth={false}
          onChange={(event) => { setDraft({ ...draft, currency: event.target.value.toUpperCase() }); }} />
        <MuiButton type="submit" variant="contained">{translate('bo.reports.show')}</MuiButton>
        <MuiButton component="a" href={reportCsvUrl(params)} download startIcon={<DownloadIcon />}>
          {translate('bo.action.export_csv')}
        </MuiButton>
      </Box>
      {query.isPending ? <CircularProgress aria-label={translate('ra.page.loading')} /> : null}
      {query.error ? <Alert severity="error">{query.error.message}</Alert> : null}
      {report ? (
        <>
          <Charts report={report} />
          <Section title={translate('bo.reports.per_day')}>
            <Box sx={{ overflowX: 'auto' }}>
              <Table size="small" data-testid="report-days">
                <TableHead>
                  <TableRow>
                    {['date', 'bets', 'wins', 'ggr', 'deposits', 'withdrawals', 'active_players', 'new_players', 'bonus_cost'].map((key) => (
                      <TableCell key={key} align={key === 'date' ? 'left' : 'right'}>{translate(`bo.reports.${key}`)}</TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {report.days.map((day) => (
                    <TableRow key={day.date}>
                      <TableCell>{day.date}</TableCell>
                      <TableCell align="right">{major(day.bets)}</TableCell>
                      <TableCell align="right">{major(day.wins)}</TableCell>
                      <TableCell align="right">{major(day.ggr)}</TableCell>
                      <TableCell align="right">{major(day.deposits)}</TableCell>
                      <TableCell align="right">{major(day.withdrawals)}</TableCell>
                      <TableCell align="right">{day.active_players}</TableCell>
                      <TableCell align="right">{day.new_players}</TableCell>
                      <TableCell align="right">{major(day.bonus_cost)}</TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </Box>
          </Section>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' }, gap: 2 }}>
            <GroupTable title={translate('bo.reports.by_game')} name="bo.reports.game"
              rows={report.by_game.map((row) => ({ key: row.game, bets: major(row.bets), wins: major(row.wins), ggr: major(row.ggr) }))} />
            <GroupTable title={translate('bo.reports.by_provider')} name="bo.reports.provider"
              rows={report.by_provider.map((row) => ({ key: row.provider, bets: major(row.bets), wins: major(row.wins), ggr: major(row.ggr) }))} />
          </Box>
        </>
      ) : null}
    </Box>
  );
}
