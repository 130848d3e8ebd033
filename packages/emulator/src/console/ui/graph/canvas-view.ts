/**
 * Draws a laid-out graph on a canvas: nodes as dots coloured by column, edges as one batched path,
 * labels only when zoomed in far enough to read them, and only what is on screen. Redraws on the
 * next animation frame after a change, never more than once per frame, so panning and zooming a
 * 10,000-node graph stays smooth. Pan by dragging or the arrow keys, zoom with the wheel or +/-.
 */
import type { Layout } from './layout.js';
import { COLUMN, ROW } from './layout.js';
import type { Graph } from './model.js';

const COLOURS = ['#2563eb', '#0d9488', '#9333ea', '#d97706', '#dc2626', '#6b7280'];
const MIN_SCALE = 0.01;
/** Edge labels are drawn only for views with at most this many edges (a reach, not a whole graph). */
const MAX_EDGE_LABELS = 400;
/** Where along an edge its label goes (0 the source, 1 the destination). */
const LABEL_AT = 0.62;
const MAX_SCALE = 4;

/** The canvas view of one graph. */
export class CanvasView {
  private layout: Layout | undefined;
  private edges: Int32Array = new Int32Array(0);
  /** A label per edge (what the step is), drawn at its middle when few edges are shown. */
  private edgeLabels: readonly string[] = [];
  private scale = 1;
  private panX = 0;
  private panY = 0;
  private pending = false;
  selected = -1;
  marked = new Set<number>();
  /** Called with the node a click landed on. */
  onPick: (node: number) => void = () => {};

  private g: Graph | undefined;

  constructor(readonly canvas: HTMLCanvasElement) {
    let drag: { x: number; y: number; moved: boolean } | undefined;
    canvas.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY, moved: false };
      canvas.setPointerCapture(e.pointerId);
    });
    canvas.addEventListener('pointermove', (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x;
      const dy = e.clientY - drag.y;
      if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
      if (!drag.moved) return;
      this.panX += dx;
      this.panY += dy;
      drag.x = e.clientX;
      drag.y = e.clientY;
      this.draw();
    });
    canvas.addEventListener('pointerup', (e) => {
      if (drag && !drag.moved) {
        const hit = this.hitTest(e.offsetX, e.offsetY);
        if (hit >= 0) this.onPick(hit);
      }
      drag = undefined;
    });
    canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        this.zoom(e.deltaY < 0 ? 1.2 : 1 / 1.2, e.offsetX, e.offsetY);
      },
      { passive: false },
    );
    canvas.addEventListener('keydown', (e) => {
      const step = 60;
      const moves: Record<string, () => void> = {
        ArrowLeft: () => (this.panX += step),
        ArrowRight: () => (this.panX -= step),
        ArrowUp: () => (this.panY += step),
        ArrowDown: () => (this.panY -= step),
        '+': () => this.zoom(1.25),
        '=': () => this.zoom(1.25),
        '-': () => this.zoom(0.8),
        '0': () => this.fit(),
      };
      const move = moves[e.key];
      if (!move) return;
      e.preventDefault();
      move();
      this.draw();
    });
    new ResizeObserver(() => this.draw()).observe(canvas);
  }

  /** Shows `layout` of `g` with `edges` (pairs of node indexes, optionally labelled), fitted. */
  show(g: Graph, layout: Layout, edges: Int32Array, edgeLabels: readonly string[] = []): void {
    this.g = g;
    this.layout = layout;
    this.edges = edges;
    this.edgeLabels = edgeLabels;
    this.fit();
  }

  /** Zooms by `factor` around a canvas point (default: the centre). */
  zoom(factor: number, atX = this.canvas.clientWidth / 2, atY = this.canvas.clientHeight / 2): void {
    const next = Math.min(MAX_SCALE, Math.max(MIN_SCALE, this.scale * factor));
    this.panX = atX - ((atX - this.panX) * next) / this.scale;
    this.panY = atY - ((atY - this.panY) * next) / this.scale;
    this.scale = next;
    this.draw();
  }

  /** Fits the whole layout in the canvas. */
  fit(): void {
    const l = this.layout;
    if (!l) return;
    const w = (this.canvas.clientWidth || 800) - 40;
    const h = (this.canvas.clientHeight || 600) - 20;
    this.scale = Math.min(
      MAX_SCALE,
      Math.max(MIN_SCALE, Math.min(w / (l.width + COLUMN), h / (l.height + 3 * ROW), 1.5)),
    );
    this.panX = 30 + (w - (l.width + COLUMN * 0.8) * this.scale) / 2;
    this.panY = 2 * ROW * this.scale + (h - (l.height + 2 * ROW) * this.scale) / 2;
    this.draw();
  }

  /** Whether labels are drawn at the current zoom. */
  readable(): boolean {
    return this.scale * ROW >= 10;
  }

  /** Centres node `n` and zooms in far enough to read its label. */
  centre(n: number): void {
    const l = this.layout;
    if (!l || Number.isNaN(l.x[n])) return;
    this.scale = Math.max(this.scale, 1);
    this.panX = this.canvas.clientWidth / 2 - l.x[n]! * this.scale;
    this.panY = this.canvas.clientHeight / 2 - l.y[n]! * this.scale;
    this.draw();
  }

  /** The shown node nearest a canvas point, within a few pixels, or -1. */
  hitTest(px: number, py: number): number {
    const l = this.layout;
    if (!l) return -1;
    const gx = (px - this.panX) / this.scale;
    const gy = (py - this.panY) / this.scale;
    let best = -1;
    let bestD = Math.max(8 / this.scale, ROW / 2) ** 2;
    for (const n of l.shown) {
      const labelled = this.readable();
      const dx = gx - l.x[n]!;
      const dy = gy - l.y[n]!;
      // With labels, a click on the label counts too.
      const d = labelled && dx > 0 && dx < COLUMN * 0.8 ? dy * dy : dx * dx + dy * dy;
      if (d < bestD) {
        bestD = d;
        best = n;
      }
    }
    return best;
  }

  /** Schedules a redraw on the next animation frame. */
  draw(): void {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.paint();
    });
  }

  private paint(): void {
    const { canvas, g } = this;
    const l = this.layout;
    const ratio = window.devicePixelRatio || 1;
    const w = canvas.clientWidth;
    const h = canvas.clientHeight;
    if (canvas.width !== Math.round(w * ratio) || canvas.height !== Math.round(h * ratio)) {
      canvas.width = Math.round(w * ratio);
      canvas.height = Math.round(h * ratio);
    }
    const ctx = canvas.getContext('2d');
    if (!ctx || !l || !g) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const s = this.scale;
    const sx = (x: number): number => x * s + this.panX;
    const sy = (y: number): number => y * s + this.panY;
    const visible = (x: number, y: number): boolean => x > -COLUMN * s && x < w + 20 && y > -20 && y < h + 20;

    ctx.font = '600 13px system-ui, sans-serif';
    ctx.fillStyle = '#374151';
    let titleEnd = -Infinity;
    for (const band of l.bands) {
      const x = Math.max(sx(band.x) - 4, titleEnd + 12);
      ctx.fillText(band.title, x, sy(-1.5 * ROW));
      titleEnd = x + ctx.measureText(band.title).width;
    }

    ctx.lineWidth = 1;
    // Thousands of edges in one place read as a shade; fewer as lines.
    ctx.strokeStyle = this.edges.length > 4000 ? 'rgba(100, 116, 139, 0.08)' : 'rgba(100, 116, 139, 0.4)';
    ctx.beginPath();
    const e = this.edges;
    for (let i = 0; i < e.length; i += 2) {
      const x1 = sx(l.x[e[i]!]!);
      const y1 = sy(l.y[e[i]!]!);
      const x2 = sx(l.x[e[i + 1]!]!);
      const y2 = sy(l.y[e[i + 1]!]!);
      if ((x1 < 0 && x2 < 0) || (x1 > w && x2 > w) || (y1 < 0 && y2 < 0) || (y1 > h && y2 > h)) continue;
      ctx.moveTo(x1, y1);
      ctx.lineTo(x2, y2);
    }
    ctx.stroke();
    if (this.readable() && this.edgeLabels.length > 0 && this.edgeLabels.length <= MAX_EDGE_LABELS) {
      ctx.font = '10px system-ui, sans-serif';
      ctx.textAlign = 'center';
      for (let i = 0; i < e.length; i += 2) {
        // Past the middle: the start of an edge runs under its source's name.
        const x = sx(l.x[e[i]!]! * (1 - LABEL_AT) + l.x[e[i + 1]!]! * LABEL_AT);
        const y = sy(l.y[e[i]!]! * (1 - LABEL_AT) + l.y[e[i + 1]!]! * LABEL_AT);
        const text = this.edgeLabels[i / 2];
        if (text === undefined || !visible(x, y)) continue;
        const width = ctx.measureText(text).width;
        const length = Math.hypot(
          sx(l.x[e[i + 1]!]!) - sx(l.x[e[i]!]!),
          sy(l.y[e[i + 1]!]!) - sy(l.y[e[i]!]!),
        );
        // A label longer than its edge would cover the nodes at its ends.
        if (length < width + 24) continue;
        ctx.fillStyle = 'rgba(255, 255, 255, 0.85)';
        ctx.fillRect(x - width / 2 - 2, y - 7, width + 4, 12);
        ctx.fillStyle = '#64748b';
        ctx.fillText(text, x, y + 3);
      }
      ctx.textAlign = 'start';
    }

    const r = Math.max(1.5, Math.min(6, 5 * s));
    const labels = this.readable();
    ctx.font = '12px system-ui, sans-serif';
    for (const n of l.shown) {
      const x = sx(l.x[n]!);
      const y = sy(l.y[n]!);
      if (!visible(x, y)) continue;
      ctx.fillStyle = COLOURS[g.layer[n]!]!;
      ctx.beginPath();
      ctx.arc(x, y, r, 0, Math.PI * 2);
      ctx.fill();
      if (this.marked.has(n) || n === this.selected) {
        ctx.strokeStyle = n === this.selected ? '#111827' : '#f59e0b';
        ctx.lineWidth = 3;
        ctx.beginPath();
        ctx.arc(x, y, r + 4, 0, Math.PI * 2);
        ctx.stroke();
        ctx.lineWidth = 1;
      }
      if (labels) {
        if (this.edgeLabels.length > 0) {
          // Names stay legible over the edges and their labels.
          const name = ellipsis(g.names[n]!, 22);
          ctx.fillStyle = 'rgba(255, 255, 255, 0.9)';
          ctx.fillRect(x + r + 6, y - 8, ctx.measureText(name).width + 4, 15);
        }
        ctx.fillStyle = '#111827';
        ctx.fillText(ellipsis(g.names[n]!, 22), x + r + 8, y + 4);
      }
    }
  }
}

function ellipsis(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
