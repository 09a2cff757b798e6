/*
 * A local double of Google Identity Services (accounts.google.com/gsi/client), served by the fake
 * Google: window.google.accounts.oauth2.initTokenClient({ client_id, scope, callback, error_callback })
 * returns { requestAccessToken() }, which shows an in-page dialog instead of Google's popup.
 * Continue → callback({ access_token, expires_in, scope, token_type }); Cancel →
 * error_callback({ type: 'popup_closed', message: 'Popup window closed' }). Calls
 * window.onGoogleLibraryLoad once loaded, like the real library.
 */
(function () {
  'use strict';

  var script = document.currentScript || document.querySelector('script[src*="gsi-client.js"]');
  var base = script ? new URL(script.src, document.baseURI).href.replace(/\/gsi-client\.js(?:[?#].*)?$/, '') : '';

  var FIRST_NAMES = ['Ada', 'Grace', 'Linus', 'Margaret', 'Alan', 'Barbara', 'Ken', 'Frances'];
  var LAST_NAMES = ['Lovelace', 'Hopper', 'Torvalds', 'Hamilton', 'Turing', 'Liskov', 'Thompson', 'Allen'];

  function pick(list) {
    return list[Math.floor(Math.random() * list.length)];
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === 'style') node.style.cssText = attrs.style;
      else if (key === 'text') node.textContent = attrs.text;
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) {
      node.appendChild(child);
    });
    return node;
  }

  function field(label, testId, value, type) {
    var input = el('input', {
      type: type || 'text',
      'data-testid': testId,
      'aria-label': label,
      style: 'display:block;width:100%;box-sizing:border-box;padding:8px;margin:4px 0 12px;border:1px solid #dadce0;border-radius:4px;font:inherit',
    });
    input.value = value;
    return { wrapper: el('label', { style: 'display:block;font-size:13px;color:#202124' }, [document.createTextNode(label), input]), input: input };
  }

  function requestToken(config) {
    var firstName = pick(FIRST_NAMES);
    var lastName = pick(LAST_NAMES);
    var email = field('E-mail', 'fake-google-email', (firstName + '.' + lastName + Math.floor(Math.random() * 10000) + '@gmail.example.com').toLowerCase(), 'email');
    var first = field('First name', 'fake-google-first-name', firstName);
    var last = field('Last name', 'fake-google-last-name', lastName);
    var error = el('p', { 'data-testid': 'fake-google-error', style: 'color:#d93025;font-size:13px;min-height:1em;margin:0 0 8px' });
    var cont = el('button', { type: 'button', 'data-testid': 'fake-google-continue', text: 'Continue', style: 'background:#1a73e8;color:#fff;border:0;border-radius:4px;padding:8px 16px;cursor:pointer' });
    var cancel = el('button', { type: 'button', 'data-testid': 'fake-google-cancel', text: 'Cancel', style: 'background:#fff;color:#1a73e8;border:1px solid #dadce0;border-radius:4px;padding:8px 16px;margin-right:8px;cursor:pointer' });
    var overlay = el(
      'div',
      {
        role: 'dialog',
        'aria-modal': 'true',
        'aria-label': 'Google (local test double)',
        'data-testid': 'fake-google-dialog',
        style: 'position:fixed;inset:0;background:rgba(32,33,36,.5);display:flex;align-items:center;justify-content:center;z-index:2147483647;font-family:Roboto,Arial,sans-serif',
      },
      [
        el('div', { style: 'background:#fff;border-radius:8px;box-shadow:0 4px 16px rgba(0,0,0,.3);width:360px;max-width:92vw;padding:24px' }, [
          el('div', { text: 'Google (local test double)', style: 'font-size:18px;color:#202124;margin-bottom:4px' }),
          el('div', { text: 'Choose an account to continue', style: 'font-size:14px;color:#5f6368;margin-bottom:16px' }),
          email.wrapper,
          first.wrapper,
          last.wrapper,
          error,
          el('div', { style: 'text-align:right' }, [cancel, cont]),
        ]),
      ],
    );
    document.body.appendChild(overlay);
    email.input.focus();

    cancel.addEventListener('click', function () {
      overlay.remove();
      if (typeof config.error_callback === 'function') config.error_callback({ type: 'popup_closed', message: 'Popup window closed' });
    });
    cont.addEventListener('click', function () {
      cont.disabled = true;
      error.textContent = '';
      fetch(base + '/dialog/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: email.input.value.trim(),
          first_name: first.input.value.trim(),
          last_name: last.input.value.trim(),
          client_id: config.client_id,
          scope: config.scope,
        }),
      })
        .then(function (response) {
          return response.json().then(function (json) {
            if (!response.ok) throw new Error(json.error || 'HTTP ' + response.status);
            return json;
          });
        })
        .then(
          function (token) {
            overlay.remove();
            config.callback(token);
          },
          function (err) {
            cont.disabled = false;
            error.textContent = err.message;
          },
        );
    });
  }

  window.google = window.google || {};
  window.google.accounts = window.google.accounts || {};
  window.google.accounts.oauth2 = {
    initTokenClient: function (config) {
      if (!config || !config.client_id) throw new Error('initTokenClient: client_id is required (local test double).');
      if (typeof config.callback !== 'function') throw new Error('initTokenClient: callback is required (local test double).');
      return {
        requestAccessToken: function () {
          requestToken(config);
        },
      };
    },
    hasGrantedAllScopes: function (token) {
      var granted = (token && token.scope ? token.scope : '').split(' ');
      return Array.prototype.slice.call(arguments, 1).every(function (s) {
        return granted.indexOf(s) >= 0;
      });
    },
    revoke: function (_token, done) {
      if (typeof done === 'function') done({ successful: true });
    },
  };

  if (typeof window.onGoogleLibraryLoad === 'function') window.onGoogleLibraryLoad();
})();
