import { whenReady } from '../shared/dom';
import { defineElement } from '../shared/element';
import { launchScript } from '../shared/script';
import { TAG } from './settings';
import { changelogElement } from './widget';

/**
 * The changelog widget, `{cdn_url}/v1/changelog.js` (spec: Browser events; docs/browser-scripts.md:
 * Embed the changelog). It renders into every <launch-changelog> element of the page, also those added
 * later; when the page has none once it has loaded, into one it puts right after the script tag.
 */
const script = launchScript(TAG);
defineElement(TAG, changelogElement(script));
whenReady(() => {
  if (document.querySelector(TAG)) return;
  const element = document.createElement(TAG);
  const tag = script.tag;
  // A script in <head> has no place to render beside it: the widget goes to the end of <body>.
  if (tag?.isConnected && tag.parentElement !== document.head) tag.after(element);
  else document.body.append(element);
});
