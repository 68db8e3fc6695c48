// A small accessibility check of a page in Playwright, run where axe-core is not installed: what
// axe reports as serious or critical for this app's kind of markup. Visible controls without an
// accessible name, tabs without a panel or with more than one Tab stop, grids without rows of
// cells, references (aria-labelledby, aria-controls, aria-describedby, label for) to no element,
// duplicate ids, images without alt, and text under 4.5:1 contrast (3:1 when large) against its
// background. It returns one line per violation; [] when the page passes.
import type { Page } from 'playwright-core';

export function a11yViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const visible = (el: Element) => {
      if (el.closest('[hidden], [aria-hidden=true], dialog:not([open])')) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const describe = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.getAttribute('data-square') ? `[${el.getAttribute('data-square')}]` : ''}`;
    const byId = (id: string) => document.getElementById(id);
    const name = (el: Element): string => {
      const labelled = el.getAttribute('aria-labelledby');
      if (labelled)
        return labelled
          .split(/\s+/)
          .map((id) => byId(id)?.textContent ?? '')
          .join(' ')
          .trim();
      const aria = el.getAttribute('aria-label');
      if (aria?.trim()) return aria.trim();
      const labels = (el as HTMLInputElement).labels;
      if (labels?.length)
        return Array.from(labels)
          .map((l) => l.textContent ?? '')
          .join(' ')
          .trim();
      if (el.tagName === 'BUTTON' || el.tagName === 'SUMMARY' || el.getAttribute('role') === 'tab')
        return (el.textContent ?? '').trim();
      return (el.getAttribute('title') ?? '').trim();
    };
    // accessible names of controls
    for (const el of Array.from(document.querySelectorAll('input, select, textarea, button, summary, [role=tab]')))
      if (visible(el) && !name(el)) out.push(`no accessible name: ${describe(el)}`);
    // ids and references
    const seen = new Set<string>();
    for (const el of Array.from(document.querySelectorAll('[id]'))) {
      if (seen.has(el.id)) out.push(`duplicate id: ${el.id}`);
      seen.add(el.id);
    }
    for (const attr of ['aria-labelledby', 'aria-controls', 'aria-describedby'])
      for (const el of Array.from(document.querySelectorAll(`[${attr}]`)))
        for (const id of el.getAttribute(attr)!.split(/\s+/))
          if (!byId(id)) out.push(`${attr} of ${describe(el)} names no element: ${id}`);
    for (const label of Array.from(document.querySelectorAll('label[for]')))
      if (!byId(label.getAttribute('for')!)) out.push(`label for a missing element: ${label.getAttribute('for')}`);
    for (const img of Array.from(document.querySelectorAll('img')))
      if (!img.hasAttribute('alt')) out.push(`image without alt: ${describe(img)}`);
    // a tab list: each tab controls a tab panel; one tab is the list's Tab stop, the selected one
    for (const list of Array.from(document.querySelectorAll('[role=tablist]'))) {
      const tabs = Array.from(list.querySelectorAll('[role=tab]')) as HTMLElement[];
      for (const tab of tabs)
        if (byId(tab.getAttribute('aria-controls') ?? '')?.getAttribute('role') !== 'tabpanel')
          out.push(`tab without its tab panel: ${describe(tab)}`);
      const stops = tabs.filter((t) => t.tabIndex >= 0);
      if (stops.length !== 1 || stops[0].getAttribute('aria-selected') !== 'true')
        out.push(`tab list ${describe(list)}: ${stops.length} Tab stops, not just the selected tab`);
    }
    for (const panel of Array.from(document.querySelectorAll('[role=tabpanel]')))
      if (!name(panel)) out.push(`tab panel without a name: ${describe(panel)}`);
    // a grid holds rows of cells
    for (const grid of Array.from(document.querySelectorAll('[role=grid]'))) {
      if (!name(grid)) out.push(`grid without a name: ${describe(grid)}`);
      for (const child of Array.from(grid.children))
        if (child.getAttribute('role') !== 'row') out.push(`grid ${describe(grid)} has a child that is not a row`);
      for (const cell of Array.from(grid.querySelectorAll('[role=gridcell]')))
        if (cell.parentElement?.getAttribute('role') !== 'row') out.push(`gridcell outside a row: ${describe(cell)}`);
    }
    // contrast of visible text against the first opaque background behind it
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const background = (el: Element | null): number[] | undefined => {
      for (; el; el = el.parentElement) {
        const style = getComputedStyle(el);
        if (style.backgroundImage !== 'none') return undefined; // a gradient or image: not judged
        const c = rgb(style.backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3] === 1)) return c.slice(0, 3);
        if (c.length === 4 && c[3] > 0) return undefined; // translucent: not judged
      }
      return [255, 255, 255];
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!el || !node.textContent?.trim() || !visible(el)) continue;
      if (el.closest('button:disabled, select:disabled, input:disabled, option')) continue;
      const style = getComputedStyle(el);
      const fg = rgb(style.color);
      const bg = background(el);
      if (!bg || (fg.length === 4 && fg[3] < 1)) continue;
      const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
      const ratio = (l1 + 0.05) / (l2 + 0.05);
      const size = parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        out.push(`contrast ${ratio.toFixed(2)}:1 of "${node.textContent.trim().slice(0, 20)}" in ${describe(el)}`);
    }
    return out;
  });
}
