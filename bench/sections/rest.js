'use strict';
// The service against other servers of the same REST routes, on its in-memory store.
const { peerSection } = require('../lib/peer-section');

module.exports = peerSection({
  id: 'rest',
  title: 'REST: the service and its peers',
  intro: `Every server answers the same requests over the same records (the service on its in-memory store). A ratio
above 1× means the service served more requests per second than the peer.`,
});
