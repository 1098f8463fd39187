import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * One build serves every base URL: index.html references `/__CABINET_BASE__/static/…`, which the
 * server replaces with its base URL when it renders the page, and every URL inside JS and CSS is
 * relative to the file that holds it, so chunks and fonts resolve wherever /static/ is mounted.
 */
export default defineConfig(({ command }) => ({
  plugins: [react()],
  base: command === 'build' ? '/__CABINET_BASE__/static/' : '/',
  experimental: {
    renderBuiltUrl(_filename, { hostType }) {
      return hostType === 'html' ? undefined : { relative: true };
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    chunkSizeWarningLimit: 400,
    rolldownOptions: {
      output: {
        // Everything the first screen imports statically goes into one chunk: left to automatic
        // splitting, modules also used by lazy screens became a score of tiny chunks, each
        // compressed on its own and fetched on its own (web/scripts/chunk-report.mjs).
        codeSplitting: { groups: [{ name: 'initial', tags: ['$initial'] }] },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: 'http://127.0.0.1:8080', changeOrigin: false },
    },
  },
}));
