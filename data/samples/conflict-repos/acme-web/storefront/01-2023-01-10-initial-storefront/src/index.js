const React = require('react');
const { renderToString } = require('react-dom/server');

const App = () => React.createElement('h1', null, 'storefront');
console.log(renderToString(React.createElement(App)));
