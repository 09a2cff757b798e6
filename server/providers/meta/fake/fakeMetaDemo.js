/*
 * The fake Meta's demo page: lists the WhatsApp numbers and pages the fake knows, sends a
 * customer's message to one of them (control/inbound), and shows each conversation with
 * "Mark read" on the business's sent messages (control/status), a 👍 reaction on any message
 * (control/reaction) and, on WhatsApp, an order, an unsupported message and a number change
 * (control/order, control/unsupported, control/number_change). Refreshes every 2 seconds.
 */
(function () {
  'use strict';

  var base = document.body.getAttribute('data-base') || '';

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === 'text') node.textContent = attrs.text;
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) {
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    });
    return node;
  }

  function api(method, path, body) {
    return fetch(base + path, {
      method: method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
    }).then(function (response) {
      return response.json().then(function (json) {
        if (!response.ok) throw new Error(json.error || 'HTTP ' + response.status);
        return json;
      });
    });
  }

  /** Every channel: WhatsApp numbers, Facebook pages and their Instagram accounts. */
  function channelsOf(state) {
    var channels = [];
    Object.keys(state.phoneNumbers).forEach(function (id) {
      var phone = state.phoneNumbers[id];
      channels.push({ key: 'wa:' + id, id: id, label: 'WhatsApp ' + phone.display_phone_number, details: phone.verified_name + (phone.registered ? '' : ' (not registered)') });
    });
    Object.keys(state.pages).forEach(function (id) {
      var page = state.pages[id];
      channels.push({ key: 'page:' + id, id: id, label: 'Messenger ' + page.name, details: page.subscribedFields.length ? 'webhooks subscribed' : 'not subscribed' });
      if (page.instagram) channels.push({ key: 'ig:' + page.instagram.id, id: page.instagram.id, label: 'Instagram @' + page.instagram.username, details: 'linked to ' + page.name });
    });
    return channels;
  }

  function renderChannels(channels) {
    var body = document.getElementById('channels');
    body.replaceChildren.apply(
      body,
      channels.length
        ? channels.map(function (c) {
            return el('tr', {}, [el('td', { text: c.label }), el('td', { text: c.id }), el('td', { text: c.details })]);
          })
        : [el('tr', {}, [el('td', { colspan: '3', text: 'None yet: connect a channel in the console first.' })])],
    );
    var select = document.getElementById('inbound-channel');
    var selected = select.value;
    select.replaceChildren.apply(
      select,
      channels.map(function (c) {
        return el('option', { value: c.key, text: c.label });
      }),
    );
    if (selected) select.value = selected;
  }

  function lastStatus(message) {
    return message.statuses.length ? message.statuses[message.statuses.length - 1].status : 'accepted';
  }

  /** A button posting to the control API, then refreshing (its error in an alert). */
  function controlButton(label, path, body) {
    var button = el('button', { type: 'button', text: label });
    button.addEventListener('click', function () {
      var payload = typeof body === 'function' ? body() : body;
      if (!payload) return;
      button.disabled = true;
      api('POST', path, payload).then(refresh, function (err) {
        button.disabled = false;
        alert(err.message);
      });
    });
    return button;
  }

  function renderConversations(state) {
    var groups = {};
    state.messages.forEach(function (m) {
      var key = m.channel_id + ':' + m.customer_id;
      (groups[key] = groups[key] || []).push(m);
    });
    var container = document.getElementById('conversations');
    var keys = Object.keys(groups);
    if (!keys.length) {
      container.textContent = 'No messages yet.';
      return;
    }
    container.replaceChildren.apply(
      container,
      keys.map(function (key) {
        var messages = groups[key];
        var customer = state.customers[key];
        var title = (customer ? customer.name + ' · ' : '') + messages[0].customer_id + ' ↔ ' + messages[0].platform + ' ' + messages[0].channel_id;
        var rows = messages.slice(-30).map(function (m) {
          var action = el('td', {});
          if (m.direction === 'outbound' && ['read', 'failed'].indexOf(lastStatus(m)) < 0) {
            var button = el('button', { type: 'button', 'data-message-id': m.id, text: 'Mark read' });
            button.addEventListener('click', function () {
              button.disabled = true;
              api('POST', '/control/status', { message_id: m.id, status: 'read' }).then(refresh, function (err) {
                button.disabled = false;
                alert(err.message);
              });
            });
            action.appendChild(button);
          }
          action.appendChild(controlButton('👍', '/control/reaction', { message_id: m.id, emoji: '👍' }));
          return el('tr', {}, [
            el('td', { class: m.direction === 'inbound' ? 'in' : 'out', text: m.direction === 'inbound' ? 'Customer' : 'Business' }),
            el('td', { text: m.summary }),
            el('td', { class: 'muted', text: m.direction === 'outbound' ? lastStatus(m) : '' }),
            el('td', { class: 'muted', text: new Date(m.created_at).toLocaleTimeString() }),
            action,
          ]);
        });
        var first = messages[0];
        var tools =
          first.platform === 'whatsapp'
            ? [
                controlButton('Send an order', '/control/order', { phone_number_id: first.channel_id, from: first.customer_id }),
                controlButton('Send an unsupported message', '/control/unsupported', { phone_number_id: first.channel_id, from: first.customer_id }),
                controlButton('Change number…', '/control/number_change', function () {
                  var next = prompt('The customer’s new number (digits):');
                  return next ? { phone_number_id: first.channel_id, from: first.customer_id, new_number: next.replace(/[^\d+]/g, '') } : null;
                }),
              ]
            : [];
        return el('div', { class: 'conversation' }, [el('h3', { text: title }), el('p', {}, tools), el('table', {}, [el('tbody', {}, rows)])]);
      }),
    );
  }

  function refresh() {
    return api('GET', '/control/state').then(function (state) {
      renderChannels(channelsOf(state));
      renderConversations(state);
    });
  }

  document.getElementById('inbound-form').addEventListener('submit', function (event) {
    event.preventDefault();
    var channel = document.getElementById('inbound-channel').value;
    var from = document.getElementById('inbound-from').value.trim();
    var name = document.getElementById('inbound-name').value.trim();
    var text = document.getElementById('inbound-text').value;
    var result = document.getElementById('inbound-result');
    var kind = channel.split(':')[0];
    var id = channel.slice(kind.length + 1);
    var body =
      kind === 'wa'
        ? { phone_number_id: id, from: from, name: name || undefined, text: text }
        : kind === 'page'
          ? { page_id: id, sender_id: from, name: name || undefined, text: text }
          : { ig_id: id, sender_id: from, name: name || undefined, text: text };
    result.textContent = 'Sending…';
    api('POST', '/control/inbound', body).then(
      function (answer) {
        result.textContent = answer.webhook_status ? 'Delivered to the console (HTTP ' + answer.webhook_status + ').' : 'Webhook failed: ' + answer.webhook_error;
        document.getElementById('inbound-text').value = '';
        refresh();
      },
      function (err) {
        result.textContent = err.message;
      },
    );
  });

  refresh();
  setInterval(refresh, 2000);
})();
