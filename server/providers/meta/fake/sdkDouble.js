/*
 * A local double of Meta's JavaScript SDK (connect.facebook.net/en_US/sdk.js), served by the fake
 * Meta. It defines window.FB with init, login, getLoginStatus, getAuthResponse and logout, and calls
 * window.fbAsyncInit like the real SDK. FB.login shows an in-page dialog instead of Facebook's popup:
 *  - with opts.config_id (WhatsApp embedded signup): business name and phone number; Continue posts
 *    the WA_EMBEDDED_SIGNUP FINISH message event and answers { authResponse: { code } };
 *  - otherwise (Facebook login, page permissions): first name, last name, e-mail; Continue answers
 *    { authResponse: { accessToken, userID, expiresIn, grantedScopes } }.
 * Cancel answers { status: 'unknown', authResponse: null } (and the CANCEL event for the signup).
 */
(function () {
  'use strict';

  var script = document.currentScript || document.querySelector('script[src*="sdk.js"]');
  // The dialog endpoints live beside this script, whatever prefix the fake is mounted at.
  var base = script ? new URL(script.src, document.baseURI).href.replace(/\/sdk\.js(?:[?#].*)?$/, '') : '';
  var FACEBOOK_ORIGIN = 'https://www.facebook.com';

  var settings = null;
  var current = null;

  var FIRST_NAMES = ['Alex', 'Sam', 'Jordan', 'Taylor', 'Morgan', 'Casey', 'Robin', 'Jamie'];
  var LAST_NAMES = ['Rivera', 'Chen', 'Okafor', 'Novak', 'Larsen', 'Dubois', 'Silva', 'Kowalski'];

  function pick(list) {
    return list[Math.floor(Math.random() * list.length)];
  }

  function randomDigits(count) {
    var out = '';
    for (var i = 0; i < count; i++) out += Math.floor(Math.random() * 10);
    return out;
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
      style: 'display:block;width:100%;box-sizing:border-box;padding:8px;margin:4px 0 12px;border:1px solid #ccd0d5;border-radius:6px;font:inherit',
    });
    input.value = value;
    var wrapper = el('label', { style: 'display:block;font-size:13px;color:#1c1e21' }, [document.createTextNode(label), input]);
    return { wrapper: wrapper, input: input };
  }

  /** The dialog: resolves with the field values on Continue, null on Cancel. */
  function showDialog(title, fields, submit) {
    var overlay = el('div', {
      role: 'dialog',
      'aria-modal': 'true',
      'aria-label': 'Facebook (local test double)',
      'data-testid': 'fake-facebook-dialog',
      style: 'position:fixed;inset:0;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;z-index:2147483647;font-family:Helvetica,Arial,sans-serif',
    });
    var error = el('p', { 'data-testid': 'fake-facebook-error', style: 'color:#d93025;font-size:13px;min-height:1em;margin:0 0 8px' });
    var cont = el('button', {
      type: 'button',
      'data-testid': 'fake-facebook-continue',
      text: 'Continue',
      style: 'background:#1877f2;color:#fff;border:0;border-radius:6px;padding:8px 16px;font-weight:bold;cursor:pointer',
    });
    var cancel = el('button', {
      type: 'button',
      'data-testid': 'fake-facebook-cancel',
      text: 'Cancel',
      style: 'background:#e4e6eb;color:#050505;border:0;border-radius:6px;padding:8px 16px;margin-right:8px;cursor:pointer',
    });
    var box = el(
      'div',
      { style: 'background:#fff;border-radius:8px;box-shadow:0 12px 28px rgba(0,0,0,.3);width:360px;max-width:92vw;padding:20px' },
      [
        el('div', { text: 'Facebook (local test double)', style: 'color:#1877f2;font-weight:bold;font-size:18px;margin-bottom:4px' }),
        el('div', { text: title, style: 'color:#606770;font-size:14px;margin-bottom:16px' }),
      ]
        .concat(
          fields.map(function (f) {
            return f.wrapper;
          }),
        )
        .concat([error, el('div', { style: 'text-align:right' }, [cancel, cont])]),
    );
    overlay.appendChild(box);
    document.body.appendChild(overlay);
    if (fields[0]) fields[0].input.focus();

    return new Promise(function (resolve) {
      function close(result) {
        overlay.remove();
        resolve(result);
      }
      cancel.addEventListener('click', function () {
        close(null);
      });
      cont.addEventListener('click', function () {
        cont.disabled = true;
        error.textContent = '';
        submit(
          fields.map(function (f) {
            return f.input.value.trim();
          }),
        ).then(close, function (err) {
          cont.disabled = false;
          error.textContent = (err && err.message) || 'Something went wrong.';
        });
      });
    });
  }

  function post(path, body) {
    return fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(function (response) {
      return response.json().then(function (json) {
        if (!response.ok) throw new Error(json.error || 'HTTP ' + response.status);
        return json;
      });
    });
  }

  function postSignupEvent(event, data) {
    window.dispatchEvent(
      new MessageEvent('message', {
        origin: FACEBOOK_ORIGIN,
        data: JSON.stringify({ type: 'WA_EMBEDDED_SIGNUP', event: event, data: data, version: 3 }),
      }),
    );
  }

  function embeddedSignup(callback) {
    var business = field('Business name', 'fake-facebook-business-name', 'Test Business ' + randomDigits(3));
    var phone = field('WhatsApp phone number', 'fake-facebook-phone', '+1 555-01' + randomDigits(2) + '-' + randomDigits(4), 'tel');
    showDialog('Connect a WhatsApp Business number', [business, phone], function (values) {
      return post('/dialog/embedded_signup', { business_name: values[0], phone_number: values[1] });
    }).then(function (result) {
      if (!result) {
        postSignupEvent('CANCEL', { current_step: 'PHONE_NUMBER_SETUP' });
        callback({ status: 'unknown', authResponse: null });
        return;
      }
      postSignupEvent('FINISH', { phone_number_id: result.phone_number_id, waba_id: result.waba_id });
      callback({ status: 'connected', authResponse: { code: result.code, userID: '', expiresIn: 0 } });
    });
  }

  function facebookLogin(callback, scope) {
    var firstName = pick(FIRST_NAMES);
    var lastName = pick(LAST_NAMES);
    var first = field('First name', 'fake-facebook-first-name', firstName);
    var last = field('Last name', 'fake-facebook-last-name', lastName);
    var email = field('E-mail', 'fake-facebook-email', (firstName + '.' + lastName + '.' + randomDigits(4) + '@fb.example.com').toLowerCase(), 'email');
    var what = /pages_/.test(scope) ? 'Allow the app to manage your Pages and Instagram messages' : 'Log in with Facebook';
    showDialog(what, [first, last, email], function (values) {
      return post('/dialog/login', { first_name: values[0], last_name: values[1], email: values[2], scopes: scope });
    }).then(function (result) {
      if (!result) {
        callback({ status: 'unknown', authResponse: null });
        return;
      }
      current = { accessToken: result.accessToken, userID: result.userID, expiresIn: result.expiresIn, grantedScopes: result.grantedScopes };
      callback({ status: 'connected', authResponse: current });
    });
  }

  window.FB = {
    init: function (options) {
      settings = options || {};
      if (!settings.appId) console.error('FB.init: appId is required (local test double).');
    },
    login: function (callback, options) {
      var opts = options || {};
      var cb = typeof callback === 'function' ? callback : function () {};
      if (!settings) console.warn('FB.login() called before FB.init() (local test double).');
      if (opts.config_id) embeddedSignup(cb);
      else facebookLogin(cb, opts.scope || 'public_profile');
    },
    getLoginStatus: function (callback) {
      var response = current ? { status: 'connected', authResponse: current } : { status: 'unknown', authResponse: null };
      setTimeout(function () {
        callback(response);
      }, 0);
    },
    getAuthResponse: function () {
      return current;
    },
    logout: function (callback) {
      current = null;
      setTimeout(function () {
        if (typeof callback === 'function') callback({ status: 'unknown', authResponse: null });
      }, 0);
    },
  };

  if (typeof window.fbAsyncInit === 'function') window.fbAsyncInit();
})();
