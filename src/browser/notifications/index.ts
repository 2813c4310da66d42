import { mount, whenReady } from '../shared/dom';
import { defineElement } from '../shared/element';
import { launchScript } from '../shared/script';
import { LaunchNotifications } from './element';
import { readSettings } from './settings';

/**
 * The notification bell, `{cdn_url}/v1/notifications.js` (spec: Browser events): a
 * `<launch-notifications>` element, at `data-target` or as a fixed launcher at `data-position`,
 * also reachable as `window.launchNotifications`. Without its required settings it renders nothing.
 */
const TAG = 'launch-notifications';
const settings = readSettings(launchScript(TAG));

if (settings) {
  LaunchNotifications.settings = settings;
  defineElement(TAG, LaunchNotifications);
  whenReady(() => {
    const bell = (document.querySelector(TAG) ?? document.createElement(TAG)) as LaunchNotifications;
    if (!bell.isConnected) {
      let target: Element | null = null;
      try {
        target = settings.target ? document.querySelector(settings.target) : null;
      } catch {
        // an invalid selector: mount() says so and uses <body>
      }
      if (!target) bell.dataset.position = settings.position;
      mount(bell, settings.target);
    }
    window.launchNotifications = bell;
  });
}
