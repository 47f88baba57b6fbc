export const PortfolioScreen = () => <section data-screen="PortfolioScreen" />;
