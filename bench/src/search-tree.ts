/**
 * The search benchmark's tree: BENCH_SEARCH_FILES files (default 1,000,000) spread evenly over
 * BENCH_SEARCH_FOLDERS folders (default 20,000, two levels: 200 × 100), with names shaped like
 * real ones (camera files, dated reports, invoices, music, notes). Empty files: search reads names
 * only. Built once under bench/.data and reused; a marker file says it is complete.
 */
import { closeSync, existsSync, mkdirSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BENCH_DIR } from './layout.ts';

export interface SearchTree {
  root: string;
  files: number;
  folders: number;
}

/** One name per file number: a few families so some words are rare and others common. */
export function fileName(n: number): string {
  switch (n % 8) {
    case 0:
      return `IMG_${String(n).padStart(7, '0')}.jpg`;
    case 1:
      return `report-${2000 + (n % 25)}-${String(n % 12).padStart(2, '0')}-${n}.pdf`;
    case 2:
      return `invoice-${n}.pdf`;
    case 3:
      return `track ${n % 97} - take ${n}.mp3`;
    case 4:
      return `notes_${n}.txt`;
    case 5:
      return `DSC${n}.png`;
    case 6:
      return `clip-${n}.mp4`;
    default:
      return `data.${n}.json`;
  }
}

export function searchTree(): SearchTree {
  const files = Number(process.env.BENCH_SEARCH_FILES ?? 1_000_000);
  const folders = Number(process.env.BENCH_SEARCH_FOLDERS ?? 20_000);
  const base = process.env.BENCH_DATA ?? path.join(BENCH_DIR, '.data');
  const root = path.join(base, `search-${files}-${folders}`, 'root');
  return { root, files, folders };
}

/** Creates the tree unless a complete one exists; returns seconds spent (0 when reused). */
export function ensureSearchTree(tree: SearchTree): number {
  const marker = path.join(path.dirname(tree.root), 'complete');
  if (existsSync(marker)) return 0;
  const started = performance.now();
  rmSync(tree.root, { recursive: true, force: true });
  const top = Math.max(1, Math.round(Math.sqrt(tree.folders / 2)));
  const perTop = Math.ceil(tree.folders / top);
  const folderPaths: string[] = [];
  for (let t = 0; t < top && folderPaths.length < tree.folders; t++) {
    for (let s = 0; s < perTop && folderPaths.length < tree.folders; s++) {
      const folder = path.join(tree.root, `area-${t}`, `box ${s}`);
      mkdirSync(folder, { recursive: true });
      folderPaths.push(folder);
    }
  }
  for (let n = 0; n < tree.files; n++) {
    const folder = folderPaths[n % folderPaths.length]!;
    closeSync(openSync(path.join(folder, fileName(n)), 'w'));
  }
  writeFileSync(marker, '');
  return (performance.now() - started) / 1000;
}
