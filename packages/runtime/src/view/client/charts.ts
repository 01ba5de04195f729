/**
 * Small histograms of an agent run (cost, tokens, steps per instance), drawn by uPlot (bars
 * path), which is bundled into the report.
 * @module
 */
import uPlot from 'uplot';
import { h } from './dom.js';

const bins = 12;

/**
 * A histogram of `values` (nulls left out) titled `title`; a note instead when none is known.
 * @param label formats a bin's lower edge for the axis
 */
export function histogram(
  title: string,
  values: Array<number | null>,
  label: (v: number) => string,
): HTMLElement {
  const known = values.filter((v): v is number => v !== null);
  const box = h('figure', { class: 'chart', 'data-chart': title }, h('figcaption', null, title));
  if (known.length === 0) {
    box.append(h('p', { class: 'muted' }, 'not recorded (no price or usage for this run)'));
    return box;
  }
  const min = Math.min(...known);
  const max = Math.max(...known);
  const width = max === min ? 1 : (max - min) / bins;
  const counts = new Array<number>(max === min ? 1 : bins).fill(0);
  for (const v of known) counts[Math.min(counts.length - 1, Math.floor((v - min) / width))]! += 1;
  const xs = counts.map((_, i) => i);
  const target = h('div');
  box.append(target);
  const bars = uPlot.paths.bars?.({ size: [0.9, 40] });
  new uPlot(
    {
      width: 300,
      height: 150,
      legend: { show: false },
      cursor: { show: false },
      scales: { x: { time: false, range: [-0.5, counts.length - 0.5] } },
      axes: [
        {
          values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? label(min + t * width) : '')),
          size: 30,
        },
        { size: 40 },
      ],
      series: [
        {},
        {
          label: 'instances',
          fill: '#4a7bd0',
          stroke: '#2f5ca8',
          ...(bars === undefined ? {} : { paths: bars }),
          points: { show: false },
        },
      ],
    },
    [xs, counts],
    target,
  );
  box.append(h('p', { class: 'muted' }, `${known.length} instances, ${label(min)} to ${label(max)}`));
  return box;
}
