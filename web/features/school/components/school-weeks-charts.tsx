import '@web/features/school/i18n';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip, type ChartOptions } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import type { SchoolDashboard } from '@contract/school';
import { formatDate, formatPracticeTime } from '@web/lib/format';
import { weekSeries } from '../lib/school';

// Tree-shaken: only the parts these bar charts use (Bar registers its own controller).
ChartJS.register(CategoryScale, LinearScale, BarElement, Tooltip);

const BRAND = '#4f46e5';
const BRAND_HOVER = '#4338ca';
const GREEN = '#059669';
const GREEN_HOVER = '#047857';
const GRID = '#e2e8f0';
const TICK = '#64748b';

type Kind = 'minutes' | 'tasks';

/**
 * One bar chart of the school's weeks: practice minutes or completed tasks per week. Its own lazy
 * chunk (Chart.js); the numbers are also in the table beside it for screen readers.
 */
export default function SchoolWeeksChart({ weeks, kind }: { weeks: SchoolDashboard['weeks']; kind: Kind }) {
  const { t, i18n } = useTranslation('school');
  const language = i18n.language === 'tr' ? 'tr' : 'de';
  const series = useMemo(() => weekSeries(weeks), [weeks]);
  const values = kind === 'minutes' ? series.minutes : series.tasks;
  const label = kind === 'minutes' ? t('dashboard.minutesAxis') : t('dashboard.tasksAxis');

  const options = useMemo<ChartOptions<'bar'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        legend: { display: false },
        tooltip: {
          displayColors: false,
          callbacks: {
            title: (items) => t('dashboard.weekOf', { date: formatDate(weeks[items[0]?.dataIndex ?? 0]?.week_start ?? '') }),
            label: (item) => (kind === 'minutes' ? formatPracticeTime(Number(item.raw), language) : t('dashboard.tasksValue', { count: Number(item.raw) })),
          },
        },
      },
      scales: {
        x: { grid: { display: false }, ticks: { color: TICK, maxRotation: 0, autoSkip: true, autoSkipPadding: 6, font: { size: 11 } } },
        y: {
          beginAtZero: true,
          grid: { color: GRID },
          border: { display: false },
          ticks: { color: TICK, precision: 0, font: { size: 11 } },
          title: { display: true, text: label, color: TICK, font: { size: 11 } },
        },
      },
    }),
    [weeks, kind, label, language, t],
  );

  const data = useMemo(
    () => ({
      labels: series.labels,
      datasets: [
        {
          label,
          data: values,
          backgroundColor: kind === 'minutes' ? BRAND : GREEN,
          hoverBackgroundColor: kind === 'minutes' ? BRAND_HOVER : GREEN_HOVER,
          borderRadius: 4,
          maxBarThickness: 28,
        },
      ],
    }),
    [series, values, label, kind],
  );

  const total = values.reduce((a, b) => a + b, 0);
  const aria =
    kind === 'minutes'
      ? t('dashboard.minutesAria', { count: weeks.length, total: formatPracticeTime(total, language) })
      : t('dashboard.tasksAria', { count: weeks.length, total });
  return <Bar data={data} options={options} role="img" aria-label={aria} data-testid={`school-chart-${kind}`} />;
}
