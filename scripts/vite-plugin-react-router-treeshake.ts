// Vite plugin: lets the bundler drop the parts of React Router the app never uses (Form, useSubmit,
// ScrollRestoration, HistoryRouter…). Its files create those components at the top level with
// `React.forwardRef(…)` and then set `X.displayName = "X"`; neither is marked side-effect free, so
// every one of them stayed in the first visit's script. Marking the calls pure and dropping the
// display names (a debugging aid of React DevTools) leaves only what is imported.
import type { Plugin } from 'vite';

// React Router 7 ships .mjs bundles (`var Form = React3.forwardRef(`), 8 one .js file per module
// (`const Form = React$1.forwardRef(`).
const ROUTER_FILE = /[\\/]node_modules[\\/]react-router[\\/]dist[\\/]production[\\/].*\.m?js$/;
const DISPLAY_NAME = /^[A-Za-z_$][\w$]*\.displayName = "[^"\n]*";$/gm;
const TOP_LEVEL_FACTORY = /^((?:var|const) [A-Za-z_$][\w$]* = )(React[\w$]*\.(?:forwardRef|createContext|memo)\()/gm;

export function stripReactRouterExtras(code: string): string {
  return code.replace(DISPLAY_NAME, '').replace(TOP_LEVEL_FACTORY, '$1/* @__PURE__ */ $2');
}

export function reactRouterTreeshake(): Plugin {
  return {
    name: 'pxt:react-router-treeshake',
    apply: 'build',
    enforce: 'pre',
    transform(code, id) {
      if (!ROUTER_FILE.test(id)) return null;
      return { code: stripReactRouterExtras(code), map: null };
    },
  };
}
