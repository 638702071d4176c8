import { formatCount, formatUsd, type Locale } from '@depot/contracts';
import { theme } from 'antd';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// A module of its own: echarts is most of a megabyte, loaded only by the pages that draw a chart
// (the dashboard, the reports), not by every page using figures.tsx's helpers.
echarts.use([LineChart, BarChart, GridComponent, TooltipComponent, LegendComponent, SVGRenderer]);

/** A chart in the page's font (the bundled Khmer font) and colours, light or dark. */
export function Chart({
  categories,
  series,
  kinds,
  locale,
  height = 300,
  testId,
}: {
  categories: string[];
  series: { name: string; data: number[]; kind: string; type?: 'line' | 'bar'; dashed?: boolean }[];
  kinds?: string;
  locale: Locale;
  height?: number;
  testId?: string;
}) {
  const { token } = theme.useToken();
  const money = series.some((s) => s.kind === 'money');
  const option = {
    textStyle: { fontFamily: token.fontFamily, color: token.colorText },
    color: [token.colorPrimary, token.colorInfo, token.colorWarning, token.colorTextTertiary],
    tooltip: {
      trigger: 'axis',
      textStyle: { fontFamily: token.fontFamily },
      valueFormatter: (v: number) => (money ? formatUsd(Math.round(v * 100)) : formatCount(v)),
    },
    legend: { top: 0, textStyle: { color: token.colorText, fontFamily: token.fontFamily } },
    grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
    xAxis: {
      type: 'category',
      data: categories,
      axisLabel: { color: token.colorTextSecondary, fontFamily: token.fontFamily },
    },
    yAxis: {
      type: 'value',
      axisLabel: { color: token.colorTextSecondary, fontFamily: token.fontFamily },
      splitLine: { lineStyle: { color: token.colorBorderSecondary } },
    },
    series: series.map((s) => ({
      name: s.name,
      type: s.type ?? 'bar',
      smooth: true,
      data: s.data.map((v) => (s.kind === 'money' ? v / 100 : v)),
      lineStyle: s.dashed ? { type: 'dashed' } : undefined,
    })),
  };
  void kinds;
  void locale;
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  // echarts itself (echarts-for-react needs tslib, which the install lacks): one instance per box,
  // the option replaced whole on every render, resized with the box, disposed on unmount
  useEffect(() => {
    if (!box.current) return;
    const instance = echarts.init(box.current, null, { renderer: 'svg' });
    chart.current = instance;
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => instance.resize());
    observer?.observe(box.current);
    return () => {
      observer?.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  });
  return <div data-testid={testId} ref={box} style={{ height, width: '100%' }} />;
}
