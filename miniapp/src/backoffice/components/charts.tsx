// Two small hand-written SVG charts (a line chart of several series per day, and grouped bars):
// the reports need nothing more, and a chart library would weigh more than the whole page.
import { Box } from '@mui/material';
import { useId } from 'react';

export interface Series {
  label: string;
  color: string;
  values: number[];
}

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 56, right: 12, top: 12, bottom: 28 };

function bounds(series: Series[]): [number, number] {
  const all = series.flatMap((one) => one.values);
  const min = Math.min(0, ...all);
  const max = Math.max(1, ...all);
  return [min, max];
}

interface ChartProps {
  title: string;
  labels: string[];
  series: Series[];
  /** Formats an axis value (money in major units, a count...). */
  format: (value: number) => string;
  kind: 'line' | 'bar';
  testId?: string;
}

/** A chart with a text equivalent: the SVG is labelled, the numbers are also in the table beside it. */
export function Chart({ title, labels, series, format, kind, testId }: ChartProps) {
  const titleId = useId();
  const [min, max] = bounds(series);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;
  const y = (value: number) => PAD.top + plotHeight - ((value - min) / (max - min)) * plotHeight;
  const step = labels.length > 0 ? plotWidth / labels.length : plotWidth;
  const x = (index: number) => PAD.left + step * index + step / 2;
  const ticks = [min, (min + max) / 2, max];
  const every = Math.max(1, Math.ceil(labels.length / 8));
  const barWidth = (step * 0.8) / Math.max(1, series.length);

  return (
    <Box component="figure" sx={{ m: 0 }} data-testid={testId}>
      <svg viewBox={`0 0 ${String(WIDTH)} ${String(HEIGHT)}`} role="img" aria-labelledby={titleId} style={{ width: '100%', height: 'auto' }}>
        <title id={titleId}>{title}</title>
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} stroke="#ccc" strokeDasharray="3 3" />
            <text x={PAD.left - 6} y={y(tick) + 4} fontSize="11" textAnchor="end" fill="currentColor">
              {format(tick)}
            </text>
          </g>
        ))}
        {labels.map((label, index) =>
          index % every === 0 ? (
            <text key={label} x={x(index)} y={HEIGHT - 8} fontSize="11" textAnchor="middle" fill="currentColor">
              {label}
            </text>
          ) : null,
        )}
        {kind === 'line'
          ? series.map((one) => (
              <polyline
                key={one.label}
                fill="none"
                stroke={one.color}
                strokeWidth="2"
                points={one.values.map((value, index) => `${String(x(index))},${String(y(value))}`).join(' ')}
              />
            ))
          : series.map((one, seriesIndex) =>
              one.values.map((value, index) => {
                const top = y(Math.max(0, value));
                const height = Math.abs(y(value) - y(0));
                return (
                  <rect
                    key={`${one.label}-${String(index)}`}
                    x={x(index) - (step * 0.8) / 2 + barWidth * seriesIndex}
                    y={top}
                    width={barWidth}
                    height={height}
                    fill={one.color}
                  />
                );
              }),
            )}
      </svg>
      <Box component="figcaption" sx={{ display: 'flex', gap: 2, flexWrap: 'wrap', fontSize: 13 }}>
        {series.map((one) => (
          <span key={one.label}>
            <Box component="span" sx={{ display: 'inline-block', width: 12, height: 12, mr: 0.5, bgcolor: one.color, verticalAlign: 'middle' }} />
            {one.label}
          </span>
        ))}
      </Box>
    </Box>
  );
}
