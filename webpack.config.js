// Builds the add-in's one shared page (shared runtime: task pane, custom functions and ribbon commands run
// in the same page and the same JavaScript runtime).
//
//   npm run build                                        production build in dist/ (manifest still localhost)
//   npm run build -- --env url=https://example.com/addin/    ... with dist/manifest.xml pointing there
//   npm run build -- --env officejs=local                copy the npm package's office.js into dist/office-js/ and
//                                                        load it from there (offline work only; see below)
//   npm run build -- --env api=https://api.example.com/api/v1   the API the pages may call, and the base URL the
//                                                        Connect screen offers (required with url=; without it, the
//                                                        local sandbox: scripts/page-security.js)
//   npm run build -- --env api=/api/v1                   ... a path on the add-in's own address instead, where a
//                                                        relay passes the calls on to the API, for an API that sends
//                                                        no CORS headers (docs/deploying-for-a-team.md)
//   --env sandbox=https://localhost:4011/api/v1          the sandbox address the pane and workbench offer (npm start
//                                                        on macOS: the https sandbox; default http://127.0.0.1:4010)
//   webpack serve --mode development                     dev server on https://localhost:3000 (npm start runs it),
//                                                        with the workbench at /workbench.html (--env officejs=local
//                                                        serves the npm package's office.js, for no internet)
//   webpack --mode development --env workbench           the add-in and the workbench in dist/
//
// The workbench (src/workbench: the real task pane and FIN functions on an in-memory workbook, for machines
// without Excel and for the browser tests) is a second, separate compilation, so the add-in's own bundles,
// chunks and runtime stay exactly what they are without it. `npm run build` does not include it.
const path = require('node:path');
const webpack = require('webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const CopyWebpackPlugin = require('copy-webpack-plugin');
const CustomFunctionsMetadataPlugin = require('custom-functions-metadata-plugin');
const { normalizeBaseUrl, rewriteManifestUrls, stripXmlComments, DEV_BASE } = require('./scripts/manifest-url');
const { apiConnectSources, contentSecurityPolicy, officeCorsHeaders, LOOPBACK_ANY_PORT, SANDBOX_ORIGINS } = require('./scripts/page-security');
const pkg = require('./package.json');

const DEV_PORT = 3000;
const DIST = path.resolve(__dirname, 'dist');
const FUNCTIONS_SOURCE = path.resolve(__dirname, 'src/functions/functions.ts');
// office.js comes from Microsoft's CDN, the only copy Microsoft supports in production and the one that keeps
// up with Excel: the npm package (1.1.110) says it is no longer supported, and its library never sets
// invocation.isInValuePreview, so on a host with formula value preview every preview would spend calls.
// `--env officejs=local` (builds and the dev server alike) serves the package's copy instead, for working
// with no internet; the workbench loads no office.js at all, and the tests read the package directly.
const OFFICE_JS_CDN = 'https://appsforoffice.microsoft.com/lib/1/hosted/office.js';
// office.js loads sibling files from its own folder (the host scripts, locale strings), so a local copy is
// the whole folder.
const OFFICE_JS_DIR = path.join(path.dirname(require.resolve('@microsoft/office-js/package.json')), 'dist');
const OFFICE_JS_LOCAL = 'office-js/office.js';
const DEV_SOCKET = `wss://localhost:${DEV_PORT}`;
// Development builds map sources without eval, so the pages' policy needs no 'unsafe-eval'.
const DEV_DEVTOOL = 'cheap-module-source-map';

/** Adds a warning to the build summary (shown by webpack with the other warnings). */
class WarnPlugin {
  constructor(message) {
    this.message = message;
  }
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('WarnPlugin', (compilation) => {
      compilation.warnings.push(new webpack.WebpackError(this.message));
    });
  }
}

/**
 * Build-time constants of both compilations: the version, and the sandbox address and the API's base URL
 * (a full URL or a relay path: the Connect screen's default) when they were given.
 */
function buildDefines({ sandbox, api } = {}) {
  const defines = { __ADDIN_VERSION__: JSON.stringify(pkg.version) };
  if (sandbox) defines.__SANDBOX_BASE_URL__ = JSON.stringify(sandbox);
  if (api) defines.__API_BASE_URL__ = JSON.stringify(api);
  return defines;
}

/** TypeScript through ts-loader, shared by the add-in and the workbench compilations. */
const tsRule = {
  test: /\.tsx?$/,
  exclude: /node_modules/,
  use: {
    loader: 'ts-loader',
    options: {
      // Type-checking is `tsc --noEmit` (npm run typecheck): with it on, ts-loader reports false
      // errors in watch mode because the metadata plugin's loader touches every file.
      transpileOnly: true,
      // ES modules for webpack (tree shaking); tsconfig's CommonJS stays for jest and ts-node.
      compilerOptions: { module: 'es2020', sourceMap: true },
    },
  },
};

/**
 * The workbench page: workbench.html at the root, its bundle and functions.json under workbench/ (so
 * nothing collides with the add-in's files in the same output folder). `outputPath` lets the browser
 * tests build it on its own into a folder of their own. It calls sandboxes on any loopback port (its
 * ?sandbox= parameter), and `apiOrigins` besides.
 */
function workbenchConfig({ mode, dev, outputPath = DIST, apiOrigins = [], devSocket = null, defines = buildDefines() }) {
  const csp = contentSecurityPolicy({ connect: [...LOOPBACK_ANY_PORT, ...apiOrigins], officeJs: false, devSocket });
  return {
    name: 'workbench',
    mode,
    devtool: dev ? DEV_DEVTOOL : 'source-map',
    entry: { workbench: './src/workbench/index.tsx' },
    output: {
      path: outputPath,
      filename: 'workbench/[name].js',
      chunkFilename: 'workbench/[name].js',
      // Never clean: the add-in's compilation owns the folder (and keeps workbench files, see `clean` there).
      clean: false,
    },
    resolve: { extensions: ['.ts', '.tsx', '.js', '.json'] },
    module: { rules: [tsRule] },
    plugins: [
      new webpack.DefinePlugin(defines),
      // The same CustomFunctions.associate calls Excel gets, appended to functions.ts; the workbench's
      // evaluator reads them, and functions.json for the parameter lists.
      new CustomFunctionsMetadataPlugin({ input: FUNCTIONS_SOURCE, output: 'workbench/functions.json' }),
      new HtmlWebpackPlugin({ filename: 'workbench.html', template: './src/workbench/workbench.html', chunks: ['workbench'], templateParameters: { csp } }),
      // The page's icon (public/ is the add-in's to copy; the workbench may be built on its own).
      new CopyWebpackPlugin({ patterns: [{ from: 'public/favicon.ico', to: 'favicon.ico' }] }),
    ],
    performance: { hints: false },
    stats: 'minimal',
  };
}

module.exports = async (env = {}, argv = {}) => {
  const mode = argv.mode || 'production';
  const dev = mode === 'development';
  const serving = Boolean(env.WEBPACK_SERVE);
  const baseUrl = env.url ? normalizeBaseUrl(env.url) : null; // throws early on a bad URL
  const officeJsLocal = env.officejs === 'local';
  // The workbench comes with the dev server, or with --env workbench; never in a plain build.
  const withWorkbench = serving || Boolean(env.workbench);
  if (env.officejs && !['cdn', 'local'].includes(env.officejs)) {
    throw new Error(`--env officejs=${env.officejs}: expected "cdn" (the default) or "local".`);
  }
  // The API the pages may call. A build for the team names it; a local build calls the sandbox, and the dev
  // server's pages any loopback port (npm start may move the sandbox).
  if (baseUrl && !env.api) {
    throw new Error(
      '--env url=... needs --env api=<the API base URL, e.g. https://api.example.com/api/v1, or /api/v1 behind a relay on the same address>: the pages may call only that origin.',
    );
  }
  // A relay path (--env api=/api/v1) adds nothing: its calls stay on the page's own origin.
  const apiOrigins = env.api ? apiConnectSources(env.api) : serving ? LOOPBACK_ANY_PORT : SANDBOX_ORIGINS;
  if (env.sandbox && !/^(http|https):\/\/(localhost|127\.0\.0\.1)(:\d+)?\/api\/v1$/.test(env.sandbox)) {
    throw new Error(`--env sandbox=${env.sandbox}: expected the local sandbox's base URL, e.g. https://localhost:4011/api/v1.`);
  }
  const defines = buildDefines({ sandbox: env.sandbox, api: env.api });
  const devSocket = serving ? DEV_SOCKET : null;

  const copy = [
    { from: 'assets', to: 'assets' },
    { from: 'public', to: '.' },
    {
      from: 'manifest.xml',
      to: 'manifest.xml',
      transform: (content) =>
        baseUrl ? rewriteManifestUrls(stripXmlComments(content.toString('utf8')), baseUrl) : content,
    },
  ];
  // The dev server serves the folder in place (static below) instead of copying 280 files into memory.
  if (officeJsLocal && !serving) copy.push({ from: OFFICE_JS_DIR, to: 'office-js', info: { minimized: true } });

  const plugins = [
    new webpack.DefinePlugin(defines),
    new CustomFunctionsMetadataPlugin({ input: FUNCTIONS_SOURCE, output: 'functions.json' }),
    new HtmlWebpackPlugin({
      filename: 'taskpane.html',
      template: './src/taskpane/taskpane.html',
      // One page loads all three: the shared runtime.
      chunks: ['functions', 'commands', 'taskpane'],
      templateParameters: {
        officeJsSrc: officeJsLocal ? OFFICE_JS_LOCAL : OFFICE_JS_CDN,
        // The CDN's origin is allowed only when office.js comes from there; a local copy is the page's own.
        csp: contentSecurityPolicy({ connect: apiOrigins, officeJs: !officeJsLocal, devSocket }),
      },
      // ?<hash> on the bundles: Office's webviews cache hard, a new deployment must not run stale code.
      hash: !dev,
    }),
    new CopyWebpackPlugin({ patterns: copy }),
  ];
  if (!dev && !serving && !baseUrl) {
    plugins.push(
      new WarnPlugin(
        `dist/manifest.xml still points at ${DEV_BASE}. For your team, build with ` +
          '`npm run build -- --env url=https://<where dist/ is hosted>/`.',
      ),
    );
  }

  let server;
  if (serving) {
    const { getHttpsOptions } = require('./scripts/dev-certs');
    const { cert, key, ca, source, caPath } = await getHttpsOptions();
    console.log(`dev server certificate: ${source} (${caPath})`);
    server = { type: 'https', options: { cert, key, ...(ca ? { ca } : {}) } };
  }

  const addin = {
    mode,
    devtool: dev ? DEV_DEVTOOL : 'source-map',
    entry: {
      functions: FUNCTIONS_SOURCE,
      commands: './src/commands/commands.ts',
      taskpane: './src/taskpane/index.tsx',
    },
    output: {
      path: DIST,
      filename: '[name].js',
      // With the workbench built alongside, its files in the same folder are not the add-in's to remove.
      clean: withWorkbench ? { keep: /^workbench(\/|\.html$)/ } : true,
    },
    resolve: {
      extensions: ['.ts', '.tsx', '.js', '.json'],
    },
    module: {
      rules: [tsRule],
    },
    optimization: {
      // One webpack runtime for the three entries on the page, so a module they share (the engine's cache
      // and call meter) is instantiated once, not once per entry.
      runtimeChunk: 'single',
      splitChunks: {
        chunks: 'all',
        cacheGroups: { vendor: { test: /[\\/]node_modules[\\/]/, name: 'vendor', chunks: 'all' } },
      },
    },
    plugins,
    performance: {
      hints: dev ? false : 'warning',
      maxAssetSize: 512 * 1024,
      maxEntrypointSize: 768 * 1024,
      assetFilter: (file) => file.endsWith('.js') && !file.startsWith('office-js/'),
    },
    stats: serving ? 'minimal' : { preset: 'normal', excludeAssets: [/^office-js\//, /^assets\//, /\.map$/] },
    devServer: {
      host: 'localhost',
      port: DEV_PORT,
      server,
      // CORS for Excel on the web only (it fetches functions.json), never Access-Control-Allow-Origin: *.
      headers: (req) => officeCorsHeaders(req.headers.origin),
      static: officeJsLocal ? [{ directory: OFFICE_JS_DIR, publicPath: '/office-js', watch: false }] : false,
      client: { overlay: { errors: true, warnings: false } },
    },
  };
  if (!withWorkbench) return addin;
  // Two compilations; the dev server (configured on the first) serves both.
  return [{ ...addin, name: 'addin' }, workbenchConfig({ mode, dev, apiOrigins: env.api ? apiOrigins : [], devSocket, defines })];
};

module.exports.workbenchConfig = workbenchConfig;
module.exports.buildDefines = buildDefines;
